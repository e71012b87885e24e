public import KilnCore

/// What settling an attempt did to its job, as the settle script answered.
public struct SettledAttempt: Sendable, Equatable {
    /// The job's new state: terminal when the job ended, `retrying` or `queued` when it will run again.
    public let state: JobState
    /// When it was settled, in milliseconds since 1970 (Redis's clock): the job's finish time when it ended.
    public let settledAtMilliseconds: Int64
    /// The error the job ended with (failed, dead or cancelled).
    public let errorCode: String?
    public let errorMessage: String?
    /// What the job cost its quota subject, in the queue's notation (see ``QuotaLedgerEntry``); nil when unmetered.
    let charge: String?

    public init(state: JobState, settledAtMilliseconds: Int64, errorCode: String? = nil, errorMessage: String? = nil) {
        self.init(state: state, settledAtMilliseconds: settledAtMilliseconds, errorCode: errorCode, errorMessage: errorMessage, charge: nil)
    }

    init(state: JobState, settledAtMilliseconds: Int64, errorCode: String?, errorMessage: String?, charge: String?) {
        self.state = state
        self.settledAtMilliseconds = settledAtMilliseconds
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.charge = charge
    }
}
