/// What to ask an image model: a prompt, and for edits the images to start from.
public struct ImageGenerationRequest: Sendable {
    /// An image given to the model, with its media type (`image/png`, `image/jpeg`, `image/webp`).
    public struct InputImage: Sendable, Equatable {
        public var mediaType: String
        public var data: [UInt8]

        public init(mediaType: String, data: [UInt8]) {
            self.mediaType = mediaType
            self.data = data
        }
    }

    /// The provider's model id, e.g. `gpt-image-1`, `fal-ai/flux/dev`, `fal-ai/flux-pro/kontext/multi`.
    public var model: String
    public var prompt: String
    /// Width and height in pixels; `nil` leaves the model's default.
    public var size: (width: Int, height: Int)?
    /// How many images. Default 1.
    public var count: Int
    /// Images to edit or combine; empty for text to image.
    public var inputs: [InputImage]
    /// A seed, for models that take one, so a regeneration can be asked to differ or to match.
    public var seed: Int?

    public init(
        model: String, prompt: String, size: (width: Int, height: Int)? = nil, count: Int = 1, inputs: [InputImage] = [], seed: Int? = nil
    ) {
        self.model = model
        self.prompt = prompt
        self.size = size
        self.count = count
        self.inputs = inputs
        self.seed = seed
    }
}
