/// What `POST /v1/uploads` stored (the `Upload` schema): its ``id`` goes into a job's input.
public struct Upload: Decodable, Sendable, Equatable {
    public let id: String
    public let contentType: String
    public let size: Int
    public let sha256: String

    enum CodingKeys: String, CodingKey {
        case id, size, sha256
        case contentType = "content_type"
    }
}
