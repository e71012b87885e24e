public import ImageOptions
public import JobVocabulary

/// `image.generate` (Veramo): a prompt, and for edits the uploads to start from — none makes an image from text, one
/// is edited by the prompt, several are combined into one. The mode picks the model (the route of
/// `image.generate:<mode>` in the provider configuration).
public struct ImageGenerateInput: KindInput {
    public enum Mode: String, Sendable {
        case textToImage = "text_to_image", edit, multiEdit = "multi_edit"
    }

    public let prompt: String
    public let style: ImageStyle?
    public let aspectRatio: ImageAspectRatio?
    /// Upload ids (`POST /v1/uploads`) of the caller's own images.
    public let images: [String]?

    public static let maxImages = 4

    enum CodingKeys: String, CodingKey {
        case prompt, style, images
        case aspectRatio = "aspect_ratio"
    }

    /// - Parameter images: none to make an image from the prompt alone; one to edit; several to combine.
    public init(prompt: String, style: ImageStyle? = nil, aspectRatio: ImageAspectRatio? = nil, images: [String]? = nil) {
        self.prompt = prompt
        self.style = style
        self.aspectRatio = aspectRatio
        self.images = images
    }

    public var mode: Mode {
        switch images?.count ?? 0 {
        case 0: .textToImage
        case 1: .edit
        default: .multiEdit
        }
    }

    public func validate() throws {
        try InputError.checkLength(prompt, field: "input.prompt", maximum: 2000)
        if let images {
            guard (1...Self.maxImages).contains(images.count) else {
                throw InputError(field: "input.images", reason: "must hold 1–\(Self.maxImages) upload ids, or be left out to make an image from text")
            }
            for (index, id) in images.enumerated() where !id.isUUID {
                throw InputError(field: "input.images[\(index)]", reason: "is not an upload id")
            }
        }
    }
}
