// URLSession lives in FoundationNetworking on Linux and in Foundation on Apple's platforms.
#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// The transport over a `URLSession` and its data delegate, which streams on Apple's platforms and on Linux alike
/// (FoundationNetworking has no `bytes(for:)`): the head is returned as soon as it comes, and the body is passed on
/// piece by piece, so an event stream is read as it is written and a download is written to disk as it arrives.
public final class URLSessionTransport: HTTPTransport {
    private let session: URLSession
    private let router: SessionTaskRouter

    /// - Parameter configuration: the session's settings; `.default` unless given.
    public init(configuration: URLSessionConfiguration = .default) {
        router = SessionTaskRouter()
        // The session holds its delegate strongly until it is invalidated, which `deinit` does.
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: URLRequest) async throws -> TransportResponse {
        let task = session.dataTask(with: request)
        let (body, bodyContinuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        bodyContinuation.onTermination = { termination in
            // The reader stopped early (an event stream given up, a task cancelled): stop the transfer too.
            if case .cancelled = termination { task.cancel() }
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<TransportResponse, any Error>) in
                router.register(task.taskIdentifier, head: head, body: body, bodyContinuation: bodyContinuation)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

/// The session's delegate: hands each task's head, body pieces and end to the request that started it. Its table is
/// guarded by a lock, because the session calls it on its own queue while requests register from any task.
final class SessionTaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Transfer {
        var head: CheckedContinuation<TransportResponse, any Error>?
        let body: AsyncThrowingStream<Data, any Error>
        let bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    }

    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func register(
        _ task: Int, head: CheckedContinuation<TransportResponse, any Error>, body: AsyncThrowingStream<Data, any Error>,
        bodyContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    ) {
        lock.withLock { transfers[task] = Transfer(head: head, body: body, bodyContinuation: bodyContinuation) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let started: (CheckedContinuation<TransportResponse, any Error>, AsyncThrowingStream<Data, any Error>)? = lock.withLock {
            guard let transfer = transfers[dataTask.taskIdentifier], let head = transfer.head else { return nil }
            transfers[dataTask.taskIdentifier]?.head = nil
            return (head, transfer.body)
        }
        if let (head, body) = started {
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http?.allHeaderFields ?? [:] { headers[name.lowercased()] = value }
            head.resume(returning: TransportResponse(status: http?.statusCode ?? 0, headers: headers, body: body))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let continuation = lock.withLock { transfers[dataTask.taskIdentifier]?.bodyContinuation }
        continuation?.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        let failure = error ?? URLError(.badServerResponse)
        transfer.head?.resume(throwing: failure)
        if let error {
            transfer.bodyContinuation.finish(throwing: error)
        } else {
            transfer.bodyContinuation.finish()
        }
    }
}
