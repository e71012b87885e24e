public import JobVocabulary

/// Style presets of the apps' image screens (Veramo's "Cartoon, Dreamy, …", Talevonia's illustration styles). The
/// first four are every tier's; the others are Talevonia's "better styles" of its Pro tier.
public enum ImageStyle: String, Codable, Sendable, InputChoice {
    case cartoon, dreamy, watercolor, storybook
    case anime, oilPainting = "oil_painting", cinematic, pixelArt = "pixel_art"

    /// Whether a tenant's lowest tier may ask for it (Talevonia).
    public var isBasic: Bool { [.cartoon, .dreamy, .watercolor, .storybook].contains(self) }

    /// Why the lowest tier may not have `style`, naming the field; nil when it may (no style, or a basic one).
    package static func lowestTierRefusal(_ style: ImageStyle?) -> InputError? {
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
