/// A job's lifecycle: `queued → running → succeeded | failed | cancelled`, `retrying` between attempts,
/// `dead` after the last one.
public enum JobState: String, Sendable, Codable, CaseIterable {
    case queued, running, retrying, succeeded, failed, cancelled, dead

    /// No further transition happens on its own; only an operator's replay revives `failed` and `dead`.
    public var isTerminal: Bool {
        switch self {
        case .succeeded, .failed, .cancelled, .dead: true
        case .queued, .running, .retrying: false
        }
    }
}
