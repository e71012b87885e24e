import Foundation
public import JobVocabulary

/// `story.from_drawings`: Joanie's bedtime story from a child's drawings (uploads of the same identity), with where
/// each drawing goes in it.
public struct StoryFromDrawingsInput: KindInput, Equatable {
    /// Upload ids of the drawings, in the order the parent picked them.
    public var drawings: [String]
    public var child: DrawingStoryChild

    public init(drawings: [String], child: DrawingStoryChild) {
        self.drawings = drawings
        self.child = child
    }

    /// The seed's limit: 5 to 10 drawings a story.
    public static let drawingCount = 5...10

    public func validate() throws {
        try DrawingStoryChild.checkDrawings(drawings, count: Self.drawingCount)
        try child.validate()
    }
}

/// `story.continue`: an earlier Joanie story and new drawings → the story continued, with placements for the new ones.
public struct StoryContinueInput: KindInput, Equatable {
    /// The story so far, as `story.from_drawings` (or an earlier `story.continue`) returned it.
    public struct Story: Codable, Sendable, Equatable {
        public var title: String
        public var paragraphs: [String]

        public init(title: String, paragraphs: [String]) {
            self.title = title
            self.paragraphs = paragraphs
        }
    }

    public var story: Story
    /// Upload ids of the new drawings.
    public var drawings: [String]
    public var child: DrawingStoryChild

    public init(story: Story, drawings: [String], child: DrawingStoryChild) {
        self.story = story
        self.drawings = drawings
        self.child = child
    }

    public static let drawingCount = 1...10
    public static let maxParagraphs = 60

    public func validate() throws {
        try InputError.checkLength(story.title, field: "input.story.title", maximum: 80)
        guard (1...Self.maxParagraphs).contains(story.paragraphs.count) else {
            throw InputError(field: "input.story.paragraphs", reason: "must hold 1–\(Self.maxParagraphs) paragraphs")
        }
        for (index, paragraph) in story.paragraphs.enumerated() {
            try InputError.checkLength(paragraph, field: "input.story.paragraphs[\(index)]", maximum: 2_000)
        }
        try DrawingStoryChild.checkDrawings(drawings, count: Self.drawingCount)
        try child.validate()
    }
}

/// Who the story is for: the child's name, and optionally age and a theme ("dinosaurs", "the sea").
public struct DrawingStoryChild: Codable, Sendable, Equatable {
    public var name: String
    public var age: Int?
    public var theme: String?

    public init(name: String, age: Int? = nil, theme: String? = nil) {
        self.name = name
        self.age = age
        self.theme = theme
    }

    func validate() throws {
        try InputError.checkLength(name, field: "input.child.name", maximum: 40)
        if let age, !(1...12).contains(age) { throw InputError(field: "input.child.age", reason: "must be between 1 and 12") }
        try InputError.checkLength(theme, field: "input.child.theme", maximum: 200)
    }

    /// `count` upload ids, each a UUID, none twice.
    static func checkDrawings(_ drawings: [String], count: ClosedRange<Int>) throws {
        guard count.contains(drawings.count) else {
            throw InputError(field: "input.drawings", reason: "must hold \(count.lowerBound)–\(count.upperBound) upload ids")
        }
        var seen = Set<UUID>()
        for (index, id) in drawings.enumerated() {
            guard let uuid = UUID(uuidString: id) else { throw InputError(field: "input.drawings[\(index)]", reason: "is not an upload id") }
            guard seen.insert(uuid).inserted else { throw InputError(field: "input.drawings[\(index)]", reason: "repeats a drawing") }
        }
    }
}
