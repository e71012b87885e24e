import Foundation
import HTTPTypes
import Hummingbird
import KilnJSON
import NIOCore

extension Response {
    /// A JSON answer: every JSON body the API writes (``Problem``s too) is one of its `Encodable` answer types, encoded
    /// here, so `openapi.json` can be held to the types.
    static func json(
        _ answer: some Encodable, status: HTTPResponse.Status, location: String? = nil, headers more: HTTPFields = [:]
    ) throws -> Response {
        var headers = more
        headers[.contentType] = "application/json"
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: try AnswerEncoding.bytes(of: answer)))
    }
}

/// The one way an answer becomes bytes: compact JSON with sorted keys and unescaped slashes, as the hand-written
/// documents are, so equal answers are equal bytes.
enum AnswerEncoding {
    static func bytes(of answer: some Encodable) throws -> ByteBuffer {
        if let answer = answer as? any DocumentAnswer { return ByteBuffer(bytes: JSONValue.canonicalBytes(ofObject: answer.members)) }
        return ByteBuffer(bytes: try data(of: answer))
    }

    static func text(of answer: some Encodable) throws -> String {
        if let answer = answer as? any DocumentAnswer { return JSONValue.canonicalJSON(ofObject: answer.members) }
        return String(decoding: try data(of: answer), as: UTF8.self)
    }

    private static func data(of answer: some Encodable) throws -> Data {
        // An encoder per answer: JSONEncoder is a class with settings, and answers are encoded on many threads at once.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(answer)
    }
}
