/// A passage of Talevonia's story: a continuation of `text.continue`, or the opening of `text.opening`. The worker
/// writes it and the client reads it as this type.
public struct StoryPassage: Codable, Sendable, Equatable {
    public let text: String
    /// One line, for the path's summaries.
    public let summary: String
    public let tags: [String]
    public let wordCount: Int

    public init(text: String, summary: String, tags: [String], wordCount: Int) {
        self.text = text
        self.summary = summary
        self.tags = tags
        self.wordCount = wordCount
    }

    enum CodingKeys: String, CodingKey {
        case text, summary, tags
        case wordCount = "word_count"
    }
}

/// The result of `text.continue`: three continuations in different directions.
public struct StoryContinuations: Codable, Sendable, Equatable {
    public let continuations: [StoryPassage]

    public init(continuations: [StoryPassage]) {
        self.continuations = continuations
    }
}

/// The result of `share.card`: the cards made, as artifacts.
public struct ShareCards: Codable, Sendable, Equatable {
    public struct Card: Codable, Sendable, Equatable {
        /// The artifact's name: `card-landscape.png`, `card-story.png`.
        public let name: String
        public let width: Int
        public let height: Int

        public init(name: String, width: Int, height: Int) {
            self.name = name
            self.width = width
            self.height = height
        }
    }

    public let artifacts: [Card]
    /// The lowest tier's cards carry a watermark.
    public let watermark: Bool

    public init(artifacts: [Card], watermark: Bool) {
        self.artifacts = artifacts
        self.watermark = watermark
    }
}

/// The result of `share.publish`: the page's address for the share sheet, until it expires.
public struct PublishedShare: Codable, Sendable, Equatable {
    public let shareURL: String
    /// What the share's revocation (`DELETE /v1/shares/{slug}`) takes.
    public let slug: String
    public let cardURL: String
    /// ISO 8601.
    public let expiresAt: String

    public init(shareURL: String, slug: String, cardURL: String, expiresAt: String) {
        self.shareURL = shareURL
        self.slug = slug
        self.cardURL = cardURL
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case slug
        case shareURL = "share_url"
        case cardURL = "card_url"
        case expiresAt = "expires_at"
    }
}
