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

extension GeneratedImages.Image {
    /// Width and height from a PNG's header (what the simulator and most models answer); nil for other formats.
    public var pngSize: (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard data.count >= 24, Array(data[0..<8]) == signature, Array(data[12..<16]) == Array("IHDR".utf8) else { return nil }
        func bigEndian(_ offset: Int) -> Int { data[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }
}
