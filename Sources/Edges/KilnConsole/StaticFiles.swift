import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The console's style sheet and script, from the module's bundle.
enum StaticFiles {
    static let files: [String: String] = ["console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8"]

    @Sendable static func serve(_ request: Request, context: ConsoleRequestContext) async throws -> Response {
        let name = try context.parameters.require("file")
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        guard let contentType = files[name], parts.count == 2,
            let url = Bundle.module.url(forResource: parts[0], withExtension: parts[1], subdirectory: "Static")
        else {
            throw ConsoleRefusal(.notFound, "no such file")
        }
        var headers = HTTPFields()
        headers[.contentType] = contentType
        headers[.cacheControl] = "max-age=300"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try Data(contentsOf: url))))
    }
}
