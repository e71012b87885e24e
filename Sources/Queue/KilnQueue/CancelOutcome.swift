public import KilnCore

/// What a cancellation did.
public enum CancelOutcome: Sendable, Equatable {
    /// It had not started: it is cancelled now.
    case cancelled
    /// It is running: its worker is told within a second and stops.
    case requested
    /// It had already finished in this state.
    case alreadyFinished(JobState)
    case notFound
}
