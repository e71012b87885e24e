/// What a moderation model said of some content: a score in `0...1` per category (OpenAI's thirteen, e.g.
/// `violence`, `sexual/minors`), the highest over all the inputs judged together.
public struct ModerationResult: Sendable, Equatable {
    public var scores: [String: Double]
    /// The categories the provider itself flagged.
    public var flagged: Set<String>

    public init(scores: [String: Double], flagged: Set<String>) {
        self.scores = scores
        self.flagged = flagged
    }
}
