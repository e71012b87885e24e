/// What an image model made: the images' bytes, ready to store as artifacts.
public struct GeneratedImages: Sendable {
    public struct Image: Sendable, Equatable {
        public var mediaType: String
        public var data: [UInt8]
    }

    public var images: [Image]
    /// The provider that answered, by its name in Kiln's configuration.
    public var provider: String
    public var model: String
    /// Tokens, for the models that count them (OpenAI's GPT image models); zero otherwise.
    public var usage: TokenUsage
    /// The seed the model used, when it says.
    public var seed: Int?
    public var requestID: String?
}
