public import ImageOptions
public import JobVocabulary

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

    public init(text: String, style: ImageStyle? = nil, aspectRatio: ImageAspectRatio? = nil, replaces: String? = nil) {
        self.text = text
        self.style = style
        self.aspectRatio = aspectRatio
        self.replaces = replaces
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

    public init(title: String, opening: String? = nil, style: ImageStyle? = nil, aspectRatio: ImageAspectRatio? = nil, replaces: String? = nil) {
        self.title = title
        self.opening = opening
        self.style = style
        self.aspectRatio = aspectRatio
        self.replaces = replaces
    }

    public func validate() throws {
        try InputError.checkLength(title, field: "input.title", maximum: 200)
        try InputError.checkLength(opening, field: "input.opening", maximum: 5000)
        if let replaces, JobID(validating: replaces) == nil { throw InputError(field: "input.replaces", reason: "is not a job id") }
    }

    public var lowestTierRefusal: InputError? { ImageStyle.lowestTierRefusal(style) }
}
