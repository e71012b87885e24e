public import JobVocabulary

/// The sizes of Talevonia's share card.
public enum ShareCardSize: String, Codable, Sendable, InputChoice {
    /// 1200×630: link previews (Open Graph), posts.
    case landscape
    /// 1080×1920: Instagram and TikTok stories.
    case story
}

/// `share.card`: Talevonia's share card as PNG — the story's title, cover, a summary of the path and the branding — in
/// the sizes asked for (both when absent). The tenant's lowest tier gets a watermark.
public struct ShareCardInput: KindInput {
    public let story: StoryPath
    /// The path's summary on the card; the opening of the first node when absent.
    public let summary: String?
    public let sizes: [ShareCardSize]?

    /// The longest summary a card (and a published page's card) takes.
    public static let maxSummaryCharacters = 500

    public init(story: StoryPath, summary: String? = nil, sizes: [ShareCardSize]? = nil) {
        self.story = story
        self.summary = summary
        self.sizes = sizes
    }

    public func validate() throws {
        try story.validate(field: "input.story")
        try InputError.checkLength(summary, field: "input.summary", maximum: Self.maxSummaryCharacters)
        if let sizes, sizes.isEmpty || Set(sizes).count != sizes.count {
            throw InputError(field: "input.sizes", reason: "must name each size at most once, and at least one")
        }
    }
}

/// `share.publish`: a snapshot of a reading path published as a public, read-only web page (`GET /s/{slug}`) until it
/// expires or its owner revokes it.
public struct SharePublishInput: KindInput {
    public let story: StoryPath
    /// The summary of the link preview's card; the opening of the first node when absent.
    public let summary: String?
    /// How long the page stays up; 30 days when absent.
    public let expiresInDays: Int?

    public static let defaultDays = 30
    public static let maxDays = 365

    enum CodingKeys: String, CodingKey {
        case story, summary
        case expiresInDays = "expires_in_days"
    }

    public init(story: StoryPath, summary: String? = nil, expiresInDays: Int? = nil) {
        self.story = story
        self.summary = summary
        self.expiresInDays = expiresInDays
    }

    public func validate() throws {
        try story.validate(field: "input.story")
        try InputError.checkLength(summary, field: "input.summary", maximum: ShareCardInput.maxSummaryCharacters)
        if let expiresInDays, !(1...Self.maxDays).contains(expiresInDays) {
            throw InputError(field: "input.expires_in_days", reason: "must be 1–\(Self.maxDays)")
        }
    }
}
