import Foundation
import KilnClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Harness {
    /// The apps' client of the API node ``startAPI(_:)`` started, as `identity` of the tenant (asserted with the key, for
    /// tenants that accept `trusted_server` or have no policy) or with `credential`.
    func kiln(
        _ client: Client, identity: String = "user-1", credential: Credential? = nil, device: String? = nil, budget: Duration = .seconds(20),
        transport: (any HTTPTransport)? = nil
    ) throws -> Kiln {
        let base = try #require(URL(string: try apiURL))
        let credential = credential ?? .trustedServer(identity: identity)
        var configuration = KilnConfiguration(baseURL: base, apiKey: client.key, device: device) { credential }
        configuration.retryBudget = budget
        return Kiln(configuration, transport: transport)
    }
}

/// A transport between the client and the API node that breaks what a bad network breaks, and counts what passed.
final class FaultyTransport: HTTPTransport, @unchecked Sendable {
    /// What to break: the answer to a request, after letting it reach the server.
    enum Fault {
        /// The answer is read and thrown away, and the request times out, the first `times` times.
        case loseAnswer(times: Int)
        /// The answer's body breaks off after `bytes` bytes, the first `times` times.
        case cutBody(after: Int, times: Int)
    }

    private let inner = URLSessionTransport()
    private let path: String
    private let fault: Fault
    private let lock = NSLock()
    private var broken = 0
    /// Every request to `path`, in order.
    private var sent: [URLRequest] = []
    /// The answers thrown away.
    private var lost: [Data] = []

    /// Breaks the answers of requests whose path ends with `path`.
    init(_ fault: Fault, path: String) {
        self.fault = fault
        self.path = path
    }

    var requests: [URLRequest] { lock.withLock { sent } }
    var lostAnswers: [Data] { lock.withLock { lost } }

    func send(_ request: URLRequest) async throws -> TransportResponse {
        guard request.url?.path.hasSuffix(path) == true else { return try await inner.send(request) }
        let response = try await inner.send(request)
        let breaking: Bool = lock.withLock {
            sent.append(request)
            let limit: Int
            switch fault {
            case .loseAnswer(let times), .cutBody(_, let times): limit = times
            }
            guard broken < limit else { return false }
            broken += 1
            return true
        }
        guard breaking else { return response }
        switch fault {
        case .loseAnswer:
            let body = try await response.collect()
            lock.withLock { lost.append(body) }
            throw URLError(.timedOut)
        case .cutBody(let bytes, _):
            let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
            let source = response.body
            let relay = Task {
                var left = bytes
                do {
                    for try await chunk in source {
                        continuation.yield(chunk.prefix(left))
                        left -= min(left, chunk.count)
                        if left == 0 { break }
                    }
                } catch {}
                continuation.finish(throwing: URLError(.networkConnectionLost))
            }
            continuation.onTermination = { _ in relay.cancel() }
            return TransportResponse(status: response.status, headers: response.headers, body: body)
        }
    }
}
