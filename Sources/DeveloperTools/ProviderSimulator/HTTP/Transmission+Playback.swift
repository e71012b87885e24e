import Hummingbird
import NIOCore

extension Transmission {
    /// The error that drops a connection on purpose: thrown out of a body writer, it makes the server close
    /// the channel without finishing the response.
    struct DeliberateDisconnect: Error {}

    /// The response body that plays these steps; `contentLength` is announced when given (the whole body's length
    /// even if a `cut` sends less). `afterWrite` sees each piece once it is written.
    func responseBody(
        contentLength: Int?, requestBody: RequestBody, afterWrite: (@Sendable ([UInt8]) -> Void)? = nil
    ) -> ResponseBody {
        let steps = self.steps
        return ResponseBody(contentLength: contentLength) { writer in
            for step in steps {
                switch step {
                case .write(let bytes):
                    try await writer.write(ByteBuffer(bytes: bytes))
                    afterWrite?(bytes)
                case .pause(let duration):
                    try await EventLoopPause.wait(for: duration)
                case .stall:
                    try await Self.holdUntilClientLeaves(requestBody)
                    throw DeliberateDisconnect()
                case .cut:
                    throw DeliberateDisconnect()
                case .finish:
                    try await writer.finish(nil)
                    return
                }
            }
        }
    }

    /// Waits, sending nothing, until the client closes its side of the connection or ``stallLimit`` passes.
    static func holdUntilClientLeaves(_ requestBody: RequestBody) async throws {
        do {
            try await requestBody.consumeWithCancellationOnInboundClose { _ in
                try await Task.sleep(for: Self.stallLimit)
            }
        } catch is CancellationError {
            // The client left, which is what ends a stall.
        }
    }
}
