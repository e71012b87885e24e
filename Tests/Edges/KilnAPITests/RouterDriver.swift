import HTTPTypes
import Hummingbird
import KilnAPI
import Logging
import NIOCore
import NIOEmbedded
import Locking

/// Sends requests straight to the API's router, in process, with no socket: what an app would get back.
struct RouterDriver {
    struct Answer {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let bytes: [UInt8]

        /// The body as text.
        var body: String { String(decoding: bytes, as: UTF8.self) }
    }

    private let responder: Router<APIRequestContext>.Responder
    private let logger = Logger(label: "kiln.test")

    init(_ router: Router<APIRequestContext>) {
        responder = router.buildResponder()
    }

    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: String = "") async throws -> Answer {
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: path, headerFields: headers),
            body: RequestBody(buffer: ByteBuffer(string: body)))
        let context = APIRequestContext(source: ApplicationRequestContextSource(channel: EmbeddedChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch let error as any HTTPResponseError {
            // What the server does with an error a route throws.
            response = try error.response(from: request, context: context)
        }
        let collected = CollectedBody()
        try await response.body.write(BodyCollector(collected: collected))
        return Answer(status: response.status, headers: response.headers, bytes: collected.bytes)
    }
}

/// The bytes a response wrote.
private final class CollectedBody: Sendable {
    private let buffer = Locked(ByteBuffer())

    func append(_ piece: ByteBuffer) {
        _ = buffer.withLock { $0.writeImmutableBuffer(piece) }
    }

    var bytes: [UInt8] { buffer.withLock { Array(buffer: $0) } }
}

private struct BodyCollector: ResponseBodyWriter {
    let collected: CollectedBody

    mutating func write(_ buffer: ByteBuffer) async throws {
        collected.append(buffer)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
