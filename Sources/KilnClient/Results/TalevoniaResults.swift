/// A passage of Talevonia's story: a continuation of `text.continue`, or the opening of `text.opening`.
public struct StoryPassage: Codable, Sendable, Equatable {
    public let text: String
    /// One line, for the path's summaries.
    public let summary: String
    public let tags: [String]
    public let wordCount: Int

    enum CodingKeys: String, CodingKey {
        case text, summary, tags
        case wordCount = "word_count"
    }
}

/// The result of `text.continue`: three continuations in different directions.
public struct StoryContinuations: Codable, Sendable, Equatable {
    public let continuations: [StoryPassage]
}

/// The result of `share.card`: the cards made, as artifacts.
public struct ShareCards: Codable, Sendable, Equatable {
    public struct Card: Codable, Sendable, Equatable {
        /// The artifact's name: `card-landscape.png`, `card-story.png`.
        public let name: String
        public let width: Int
        public let height: Int
    }

    public let artifacts: [Card]
    /// The lowest tier's cards carry a watermark.
    public let watermark: Bool
}

/// The result of `share.publish`: the page's address for the share sheet, until it expires.
public struct PublishedShare: Codable, Sendable, Equatable {
    public let shareURL: String
    /// What ``Kiln/revokeShare(_:)`` takes.
    public let slug: String
    public let cardURL: String
    /// ISO 8601.
    public let expiresAt: String

    enum CodingKeys: String, CodingKey {
        case slug
        case shareURL = "share_url"
        case cardURL = "card_url"
        case expiresAt = "expires_at"
    }
}
