import HTTPTypes
import Hummingbird
import KilnJSON

extension HTTPFields {
    /// Fields from name/value pairs; a pair whose name is not a valid field name is skipped (names here are
    /// literals, so that never happens in practice, and the server must not trap on it).
    init(pairs: [(String, String)]) {
        self.init()
        for (name, value) in pairs {
            if let fieldName = HTTPField.Name(name) { self.append(HTTPField(name: fieldName, value: value)) }
        }
    }

    /// The value of the field called `name`, ignoring case.
    func value(_ name: String) -> String? {
        HTTPField.Name(name).flatMap { self[$0] }
    }
}

extension Response {
    /// A response with a whole body; `contentType` is added to `headers`.
    static func bytes(_ status: Int, _ body: [UInt8], contentType: String, headers: [(String, String)] = []) -> Response {
        Response(
            status: .init(code: status), headers: HTTPFields(pairs: [("content-type", contentType)] + headers),
            body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func json(_ status: Int, _ body: JSONValue, headers: [(String, String)] = []) -> Response {
        .bytes(status, Array(body.canonicalJSON().utf8), contentType: "application/json", headers: headers)
    }
}
