import Foundation

/// An HTTP/1.1 and HTTP/2 client over libcurl's multi interface.
///
/// One dedicated thread drives all transfers of a client, so no libcurl call ever blocks Swift's
/// cooperative pool; connections are kept alive and reused across requests. Redirects are not followed.
/// Call ``shutdown()`` when done; dropping the client also stops its thread, without waiting.
public final class HTTPClient: Sendable {
    /// The settings this client was created with.
    public let configuration: HTTPClientConfiguration
    private let loop: TransferLoop

    /// Creates a client and starts its thread.
    /// - Throws: ``HTTPClientError`` if libcurl cannot be initialised.
    public init(configuration: HTTPClientConfiguration = .init()) throws {
        self.configuration = configuration
        let loop = try TransferLoop(configuration: configuration)
        self.loop = loop
        let thread = Thread { loop.run() }
        thread.name = "kiln.curl"
        thread.start()
    }

    deinit {
        self.loop.requestStop()
    }

    /// Fails every unfinished transfer with ``HTTPClientError/Kind/shutdown``, closes all connections and
    /// stops the thread, returning once it has stopped. Later calls, and later requests, do nothing but fail.
    ///
    /// It blocks for at most one turn of the loop, which never waits on the network.
    public func shutdown() {
        self.loop.requestStop()
        self.loop.waitUntilStopped()
    }

    /// Sends `request` and buffers the whole response.
    ///
    /// Cancelling the calling task ends the transfer with ``HTTPClientError/Kind/cancelled``.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: Limit for the whole transfer; `nil` uses ``HTTPClientConfiguration/totalTimeout``.
    /// - Returns: The response, whatever its status.
    /// - Throws: ``HTTPClientError`` if no complete response arrived.
    public func execute(_ request: HTTPRequest, timeout: Duration? = nil) async throws -> HTTPResponse {
        let transfer = try Transfer(request, timeout: timeout ?? self.configuration.totalTimeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.delivery = .buffered(continuation)
                self.loop.submit(transfer)
            }
        } onCancel: {
            self.loop.cancel(transfer)
        }
    }

    /// Sends `request` and hands the whole response, or the error, to `completion` on the client's thread, the one that
    /// drives every transfer of the client: `completion` must return quickly and never block. For a caller that keeps
    /// many requests going without a task for each (a load generator): no other thread is woken to take the answer.
    /// A request that cannot be sent (an invalid header) fails on that thread too, not inside this call, so a caller
    /// that sends its next request from the completion does not recurse; after ``shutdown()``, when that thread is gone,
    /// every request fails at once on the calling thread.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: Limit for the whole transfer; `nil` uses ``HTTPClientConfiguration/totalTimeout``.
    ///   - completion: Receives the response, whatever its status, or ``HTTPClientError`` if no complete response arrived.
    public func execute(
        _ request: HTTPRequest, timeout: Duration? = nil, completion: @escaping @Sendable (Result<HTTPResponse, HTTPClientError>) -> Void
    ) {
        let transfer: Transfer
        do throws(HTTPClientError) {
            transfer = try Transfer(request, timeout: timeout ?? self.configuration.totalTimeout)
        } catch {
            self.loop.run { completion(.failure(error)) }
            return
        }
        transfer.delivery = .completion(completion)
        self.loop.submit(transfer)
    }

    /// Receives each piece of a response body as it arrives, with the response's head, on the client's transfer
    /// thread; returns false to end the transfer there. It must not block: every transfer of the client waits for it.
    public typealias BodyReceiver = @Sendable (HTTPResponseHead, UnsafeRawBufferPointer) -> Bool

    /// Sends `request` and hands its body to `receive` piece by piece, as it arrives, on the client's transfer thread:
    /// no task is woken for a piece. Returns once the transfer has ended, by itself or because `receive` returned
    /// false.
    ///
    /// Cancelling the calling task ends the transfer and closes its connection.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: Limit for the whole transfer, body included; `nil` uses ``HTTPClientConfiguration/totalTimeout``.
    ///   - receive: Takes the body, whatever the status.
    /// - Returns: The status and headers.
    /// - Throws: ``HTTPClientError`` if the transfer failed (after `receive` may have had part of the body).
    public func stream(_ request: HTTPRequest, timeout: Duration? = nil, receive: @escaping BodyReceiver) async throws -> HTTPResponseHead {
        let transfer = try Transfer(request, timeout: timeout ?? self.configuration.totalTimeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.delivery = .receiving(continuation, receive)
                self.loop.submit(transfer)
            }
        } onCancel: {
            self.loop.cancel(transfer)
        }
    }

    /// Sends `request` and returns as soon as the response head arrives; the body follows as it is received.
    ///
    /// Cancelling the calling task, or dropping or cancelling the iteration of the returned body, ends the
    /// transfer and closes its connection.
    /// - Parameters:
    ///   - request: The request to send.
    ///   - timeout: Limit for the whole transfer, body included; `nil` uses ``HTTPClientConfiguration/totalTimeout``.
    /// - Returns: The status, headers and body stream, whatever the status.
    /// - Throws: ``HTTPClientError`` if no response head arrived.
    public func stream(_ request: HTTPRequest, timeout: Duration? = nil) async throws -> HTTPStreamingResponse {
        let transfer = try Transfer(request, timeout: timeout ?? self.configuration.totalTimeout)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let (body, bodyContinuation) = Transfer.BodyStream.makeStream()
                // The closure and the transfer hold each other until the stream finishes or is cancelled;
                // the loop always finishes it when the transfer ends, which breaks the cycle.
                bodyContinuation.onTermination = { [loop] termination in
                    if case .cancelled = termination {
                        loop.cancel(transfer)
                    }
                }
                transfer.delivery = .awaitingHead(continuation, body, bodyContinuation)
                self.loop.submit(transfer)
            }
        } onCancel: {
            self.loop.cancel(transfer)
        }
    }
}
