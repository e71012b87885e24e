/// One way a model's answer is wrong: it breaks the output's JSON Schema, or a rule of the kind that a schema cannot
/// say (a word count, a game state that contradicts the one given). The one repair request quotes them all.
public struct OutputViolation: Sendable, Equatable, CustomStringConvertible {
    /// Where, as a path from the answer's root: `$`, `$.continuations[1].text`.
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path) \(reason)" }
}
