/// The shapes an image may have.
public enum ImageAspectRatio: String, Codable, Sendable, InputChoice {
    case square = "1:1"
    case portrait = "3:4"
    case landscape = "4:3"
    case tall = "9:16"
    case wide = "16:9"

    /// Width and height for a long side of `longSide` pixels, both multiples of 16 (what image models accept).
    public func size(longSide: Int) -> (width: Int, height: Int) {
        let (across, down): (Double, Double) =
            switch self {
            case .square: (1, 1)
            case .portrait: (3, 4)
            case .landscape: (4, 3)
            case .tall: (9, 16)
            case .wide: (16, 9)
            }
        func multipleOf16(_ value: Double) -> Int { Int((value / 16).rounded()) * 16 }
        let scale = Double(longSide) / max(across, down)
        return (multipleOf16(across * scale), multipleOf16(down * scale))
    }
}

/// Style presets of the apps' image screens (Veramo's "Cartoon, Dreamy, …", Talevonia's illustration styles). The
/// first four are every tier's; the others are Talevonia's "better styles" of its Pro tier.
public enum ImageStyle: String, Codable, Sendable, InputChoice {
    case cartoon, dreamy, watercolor, storybook
    case anime, oilPainting = "oil_painting", cinematic, pixelArt = "pixel_art"

    /// Whether a tenant's lowest tier may ask for it (Talevonia).
    public var isBasic: Bool { [.cartoon, .dreamy, .watercolor, .storybook].contains(self) }

    /// Why the lowest tier may not have `style`, naming the field; nil when it may (no style, or a basic one).
    static func lowestTierRefusal(_ style: ImageStyle?) -> InputError? {
        guard let style, !style.isBasic else { return nil }
        let basic = allCases.filter(\.isBasic).map(\.rawValue).joined(separator: ", ")
        return InputError(field: "input.style", reason: "\(style.rawValue) is a Pro style; the free tier has \(basic)")
    }

    /// How the prompt templates describe the style to the image model.
    public var promptPhrase: String {
        switch self {
        case .cartoon: "a bright cartoon with bold outlines and flat colours"
        case .dreamy: "dreamy and soft, pastel colours, gentle glow, light haze"
        case .watercolor: "a watercolour painting with soft washes and visible paper texture"
        case .storybook: "a classic children's storybook illustration, warm and detailed"
        case .anime: "anime, clean line art and cel shading"
        case .oilPainting: "an oil painting with rich colours and visible brush strokes"
        case .cinematic: "cinematic, dramatic lighting, wide-angle composition, film still"
        case .pixelArt: "pixel art, a limited palette, crisp square pixels"
        }
    }
}

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

/// `image.illustrate` (Talevonia): one illustration of a story node.
public struct IllustrateInput: KindInput {
    /// The node's text.
    public let text: String
    public let style: ImageStyle?
    public let aspectRatio: ImageAspectRatio?
    /// The job whose image this one regenerates; the result links to it.
    public let replaces: String?

    enum CodingKeys: String, CodingKey {
        case text, style, replaces
        case aspectRatio = "aspect_ratio"
    }

    public func validate() throws {
        try InputError.checkLength(text, field: "input.text", maximum: 5000)
        if let replaces, JobID(validating: replaces) == nil { throw InputError(field: "input.replaces", reason: "is not a job id") }
    }

    public var lowestTierRefusal: InputError? { ImageStyle.lowestTierRefusal(style) }
}

/// `image.cover` (Talevonia): a story's cover from its title and opening.
public struct CoverInput: KindInput {
    public let title: String
    public let opening: String?
    public let style: ImageStyle?
    public let aspectRatio: ImageAspectRatio?
    public let replaces: String?

    enum CodingKeys: String, CodingKey {
        case title, opening, style, replaces
        case aspectRatio = "aspect_ratio"
    }

    public func validate() throws {
        try InputError.checkLength(title, field: "input.title", maximum: 200)
        try InputError.checkLength(opening, field: "input.opening", maximum: 5000)
        if let replaces, JobID(validating: replaces) == nil { throw InputError(field: "input.replaces", reason: "is not a job id") }
    }

    public var lowestTierRefusal: InputError? { ImageStyle.lowestTierRefusal(style) }
}
