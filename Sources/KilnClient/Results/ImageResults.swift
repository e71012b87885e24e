/// The result of the image kinds (`image.generate`, `image.illustrate`, `image.cover`): the picture is the artifact
/// ``artifact``.
public struct MadeImage: Codable, Sendable, Equatable {
    /// The artifact's name, `image.png`.
    public let artifact: String
    public let width: Int
    public let height: Int
    public let aspectRatio: String
    public let style: String?
    public let provider: String
    public let model: String
    public let seed: Int?
    /// The job whose image this one regenerates.
    public let replaces: String?

    enum CodingKeys: String, CodingKey {
        case artifact, width, height, style, provider, model, seed, replaces
        case aspectRatio = "aspect_ratio"
    }
}

/// The result of `document.export`: the file is the artifact ``artifact``.
public struct ExportedDocument: Codable, Sendable, Equatable {
    /// `campaign.pdf`, `story.epub`, …
    public let artifact: String
    public let format: String
    public let contentType: String
    public let bytes: Int

    enum CodingKeys: String, CodingKey {
        case artifact, format, bytes
        case contentType = "content_type"
    }
}
