import HTTPTypes
import Hummingbird
import KilnJSON
import NIOCore

extension Response {
    /// A JSON answer.
    static func json(_ value: JSONValue, status: HTTPResponse.Status, location: String? = nil, headers more: HTTPFields = [:]) -> Response {
        var headers = more
        headers[.contentType] = "application/json"
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: value.canonicalJSON())))
    }
}
