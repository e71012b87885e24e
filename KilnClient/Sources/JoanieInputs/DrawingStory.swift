/// The result of `story.from_drawings` and `story.continue`: the story's paragraphs and where each drawing goes. The
/// worker writes it and the client reads it as this type.
public struct DrawingStory: Codable, Sendable, Equatable {
    /// Where one drawing goes: after paragraph ``afterParagraph`` (from 1, counting a continued story's earlier ones).
    public struct Placement: Codable, Sendable, Equatable {
        public let uploadID: String
        public let afterParagraph: Int
        /// What the drawing shows, in the story's words.
        public let shows: String

        public init(uploadID: String, afterParagraph: Int, shows: String) {
            self.uploadID = uploadID
            self.afterParagraph = afterParagraph
            self.shows = shows
        }

        enum CodingKeys: String, CodingKey {
            case shows
            case uploadID = "upload_id"
            case afterParagraph = "after_paragraph"
        }
    }

    public let title: String
    public let paragraphs: [String]
    /// The paragraphs, separated by blank lines.
    public let storyText: String
    public let imagePlacements: [Placement]

    /// The story of `paragraphs`; its ``storyText`` is made of them.
    public init(title: String, paragraphs: [String], imagePlacements: [Placement]) {
        self.title = title
        self.paragraphs = paragraphs
        self.storyText = paragraphs.joined(separator: "\n\n")
        self.imagePlacements = imagePlacements
    }

    enum CodingKeys: String, CodingKey {
        case title, paragraphs
        case storyText = "story_text"
        case imagePlacements = "image_placements"
    }
}
