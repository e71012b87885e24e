import Foundation
import KilnStore

/// `201` of `POST /v1/uploads`: the id a job's input refers to, and what was stored (the `Upload` schema).
struct UploadAnswer: Encodable {
    let id: String
    let contentType: String
    let size: Int
    let sha256: String

    init(_ upload: Upload) {
        id = upload.id.uuidString.lowercased()
        contentType = upload.contentType
        size = upload.size
        sha256 = upload.sha256
    }

    enum CodingKeys: String, CodingKey {
        case id, size, sha256
        case contentType = "content_type"
    }
}
