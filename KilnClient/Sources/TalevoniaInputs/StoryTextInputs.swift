public import JobVocabulary

/// `text.continue`: Talevonia's "AI continue" — the story's path from the root to the selected node, which the
/// three candidate continuations must follow on from.
public struct TextContinueInput: KindInput, Equatable {
    /// The story's title, when it has one.
    public var title: String?
    /// The one-line summaries of the nodes from the root to the one before the last, in order.
    public var pathSummaries: [String]
    /// The full text of the selected node, which the continuations follow.
    public var lastNodeText: String
    /// The writer's wish for where the story goes, if any ("more mystery").
    public var guidance: String?

    enum CodingKeys: String, CodingKey {
        case title, guidance
        case pathSummaries = "path_summaries"
        case lastNodeText = "last_node_text"
    }

    public init(title: String? = nil, pathSummaries: [String] = [], lastNodeText: String, guidance: String? = nil) {
        self.title = title
        self.pathSummaries = pathSummaries
        self.lastNodeText = lastNodeText
        self.guidance = guidance
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        pathSummaries = try container.decodeIfPresent([String].self, forKey: .pathSummaries) ?? []
        lastNodeText = try container.decode(String.self, forKey: .lastNodeText)
        guidance = try container.decodeIfPresent(String.self, forKey: .guidance)
    }

    public func validate() throws {
        try InputError.checkLength(title, field: "input.title", maximum: StoryTextLimits.title)
        guard pathSummaries.count <= StoryTextLimits.pathNodes else {
            throw InputError(field: "input.path_summaries", reason: "must hold at most \(StoryTextLimits.pathNodes) summaries")
        }
        for (index, summary) in pathSummaries.enumerated() {
            try InputError.checkLength(summary, field: "input.path_summaries[\(index)]", maximum: StoryTextLimits.summary)
        }
        try InputError.checkLength(lastNodeText, field: "input.last_node_text", maximum: StoryTextLimits.nodeText)
        try InputError.checkLength(guidance, field: "input.guidance", maximum: StoryTextLimits.guidance)
    }
}

/// `text.opening`: a new story's title, and optionally what it should be about → its opening paragraph.
public struct TextOpeningInput: KindInput, Equatable {
    public var title: String
    /// What the writer wants the story to be about, if anything.
    public var prompt: String?

    public init(title: String, prompt: String? = nil) {
        self.title = title
        self.prompt = prompt
    }

    public func validate() throws {
        try InputError.checkLength(title, field: "input.title", maximum: StoryTextLimits.title)
        try InputError.checkLength(prompt, field: "input.prompt", maximum: StoryTextLimits.guidance)
    }
}

/// The sizes Talevonia's texts may have: generous for a writer, small enough that a prompt stays cheap.
enum StoryTextLimits {
    static let title = 200
    static let summary = 300
    static let pathNodes = 100
    static let nodeText = 20_000
    static let guidance = 2_000
}
