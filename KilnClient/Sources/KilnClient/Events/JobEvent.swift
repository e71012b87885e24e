public import JobVocabulary

/// One thing that happened to a job, as its event stream tells it, typed.
public enum JobEvent<Result: Decodable & Sendable>: Sendable {
    /// The job moved on: `queued`, `running`, `retrying` (between attempts).
    case status(JobState, attempt: Int)
    /// How far it has come, `0...1`, and perhaps what it does.
    case progress(JobProgress)
    /// A piece of text as it is written; `choice` tells apart the answers of a job that writes several (0–2 for
    /// `text.continue`).
    case delta(String, choice: Int)
    /// What was streamed so far is withdrawn (`invalid_output`, `content_filtered`, `retry`): drop it; what follows
    /// replaces it.
    case retract(reason: String)
    /// The job succeeded: its result, the last event.
    case succeeded(Result)
}

extension JobEvent: Equatable where Result: Equatable {}
