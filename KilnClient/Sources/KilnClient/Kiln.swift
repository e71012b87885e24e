import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Kiln's API for one app: jobs submitted, followed and read; uploads and artifacts; the quota, partners, shares and
/// the user's erasure. Every call sends the tenant's key, the user's credential and the device, retries what is safe to
/// retry within the configuration's budget, and throws ``KilnError``.
///
/// ```swift
/// let kiln = Kiln(KilnConfiguration(baseURL: url, apiKey: key) { .appTransaction(jws: try await AppTransaction.shared.jwsRepresentation) })
/// let job = try await kiln.submit(.textOpening, input: TextOpeningInput(title: "Gull Point"))
/// let opening = try await kiln.result(of: job)
/// ```
public struct Kiln: Sendable {
    public let configuration: KilnConfiguration
    let transport: any HTTPTransport

    /// A client of the Kiln the configuration names; `transport` is how its requests travel, a `URLSession` with a data
    /// delegate unless given.
    public init(_ configuration: KilnConfiguration, transport: (any HTTPTransport)? = nil) {
        self.configuration = configuration
        self.transport = transport ?? URLSessionTransport()
    }

    /// A body and its media type.
    struct Body {
        let data: Data
        let contentType: String

        static func json(_ value: some Encodable) throws -> Body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return Body(data: try encoder.encode(value), contentType: "application/json")
        }
    }

    /// Sends a request of `route` until it succeeds or may not be tried again; returns the successful answer with its
    /// body still to read. Throws ``KilnError`` for any other answer, or none.
    func send(
        _ route: Route, _ parameters: [String: String] = [:], body: Body? = nil, headers extra: [(String, String)] = []
    ) async throws -> TransportResponse {
        var plan = RetryPlan(budget: configuration.retryBudget, repeatable: route.repeatable)
        while true {
            let request = try await request(route, parameters, body: body, headers: extra)
            let outcome: RetryPlan.Outcome
            let failure: KilnError
            do {
                let response = try await transport.send(request)
                if route.success.contains(response.status) { return response }
                let retryAfter = Self.retryAfter(response.headers["retry-after"])
                failure = KilnError(status: response.status, body: try await Self.collect(response), retryAfter: retryAfter)
                outcome = .answered(status: response.status, retryAfter: failure.retryAfter)
            } catch let error as KilnError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failure = .connectionFailed(error)
                outcome = .noAnswer
            }
            guard case .retry(let wait) = plan.next(after: outcome) else { throw failure }
            try await Task.sleep(for: wait)
        }
    }

    /// Sends a request of `route` and decodes its JSON answer.
    func call<Answer: Decodable>(
        _ route: Route, _ parameters: [String: String] = [:], body: Body? = nil, headers: [(String, String)] = [], as answer: Answer.Type
    ) async throws -> Answer {
        let response = try await send(route, parameters, body: body, headers: headers)
        return try Self.decode(Answer.self, from: try await Self.collect(response), route: route)
    }

    private func request(_ route: Route, _ parameters: [String: String], body: Body?, headers extra: [(String, String)]) async throws -> URLRequest {
        // Appended, not resolved against the base: a Kiln behind a path prefix (https://example.com/kiln) keeps it.
        var base = configuration.baseURL.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        guard let url = URL(string: base + route.path(parameters)) else {
            throw KilnError(code: "invalid_request", detail: "\(route) with \(parameters) is not a URL under \(base)")
        }
        var request = URLRequest(url: url)
        request.httpMethod = route.method
        request.timeoutInterval = Double(configuration.requestTimeout.components.seconds)
        request.setValue("Bearer \(configuration.apiKey)", forHTTPHeaderField: "Authorization")
        for (name, value) in try await configuration.credential().headers { request.setValue(value, forHTTPHeaderField: name) }
        if let device = configuration.device { request.setValue(device, forHTTPHeaderField: "Kiln-Device") }
        if let body {
            request.httpBody = body.data
            request.setValue(body.contentType, forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in extra { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The whole body; a connection that breaks while it is read is a ``KilnError``.
    static func collect(_ response: TransportResponse) async throws -> Data {
        do {
            return try await response.collect()
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw KilnError.connectionFailed(error)
        }
    }

    static func decode<Answer: Decodable>(_ type: Answer.Type, from data: Data, route: Route) throws -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: data)
        } catch {
            throw KilnError.invalidAnswer("\(route) answered what is not a \(Answer.self): \(error)")
        }
    }

    /// `Retry-After` in seconds (what Kiln writes); nil for anything else.
    static func retryAfter(_ header: String?) -> Duration? {
        header.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map { .seconds(max($0, 0)) }
    }
}
