/// The result of the image kinds (`image.generate`, `image.illustrate`, `image.cover`): the picture is the artifact
/// ``artifact``. The worker writes it and the client reads it as this type.
public struct MadeImage: Codable, Sendable, Equatable {
    /// The artifact's name, `image.png`.
    public let artifact: String
    /// The size made, which a model with fixed sizes may have rounded to its nearest.
    public let width: Int
    public let height: Int
    public let aspectRatio: String
    public let style: String?
    public let provider: String
    public let model: String
    /// The prompt template's id, `<kind>.v<N>`.
    public let promptVersion: String
    public let seed: Int?
    /// The job whose image this one regenerates.
    public let replaces: String?

    public init(
        artifact: String, width: Int, height: Int, aspectRatio: String, style: String?, provider: String, model: String,
        promptVersion: String, seed: Int?, replaces: String?
    ) {
        self.artifact = artifact
        self.width = width
        self.height = height
        self.aspectRatio = aspectRatio
        self.style = style
        self.provider = provider
        self.model = model
        self.promptVersion = promptVersion
        self.seed = seed
        self.replaces = replaces
    }

    enum CodingKeys: String, CodingKey {
        case artifact, width, height, style, provider, model, seed, replaces
        case aspectRatio = "aspect_ratio"
        case promptVersion = "prompt_version"
    }
}
