/// The result of `document.export`: the file is the artifact ``artifact``. The worker writes it and the client reads it
/// as this type.
public struct ExportedDocument: Codable, Sendable, Equatable {
    /// `campaign.pdf`, `story.epub`, …
    public let artifact: String
    public let format: String
    public let contentType: String
    public let bytes: Int
    /// The document's sections: a campaign's scenes, a story's passages.
    public let sections: Int
    /// The pictures placed in it.
    public let images: Int

    public init(artifact: String, format: String, contentType: String, bytes: Int, sections: Int, images: Int) {
        self.artifact = artifact
        self.format = format
        self.contentType = contentType
        self.bytes = bytes
        self.sections = sections
        self.images = images
    }

    enum CodingKeys: String, CodingKey {
        case artifact, format, bytes, sections, images
        case contentType = "content_type"
    }
}
