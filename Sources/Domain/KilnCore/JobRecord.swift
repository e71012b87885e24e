public import Foundation

/// A job as PostgreSQL records it, written by workers as it moves through its lifecycle.
///
/// `input` and `result` are JSON text, passed through without parsing; PostgreSQL keeps them as `jsonb`, so they
/// read back with its spacing and key order, not byte for byte as written.
public struct JobRecord: Sendable, Hashable {
    public var id: JobID
    public var tenant: TenantID
    public var identity: Identity
    /// `domain.action`, e.g. `diag.echo`.
    public var kind: String
    public var priority: Priority
    public var state: JobState
    /// The fencing token: a write from an earlier attempt never replaces a later attempt's.
    public var attempt: Int
    public var maxAttempts: Int
    /// The submitted input, as JSON text.
    public var input: String
    /// The handler's result, as JSON text.
    public var result: String?
    public var errorCode: String?
    public var errorMessage: String?
    public var createdAt: Date
    public var startedAt: Date?
    public var finishedAt: Date?

    public init(
        id: JobID, tenant: TenantID, identity: Identity, kind: String, priority: Priority, state: JobState,
        attempt: Int, maxAttempts: Int, input: String, result: String? = nil, errorCode: String? = nil,
        errorMessage: String? = nil, createdAt: Date, startedAt: Date? = nil, finishedAt: Date? = nil
    ) {
        self.id = id
        self.tenant = tenant
        self.identity = identity
        self.kind = kind
        self.priority = priority
        self.state = state
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.input = input
        self.result = result
        self.errorCode = errorCode
        self.errorMessage = errorMessage
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.finishedAt = finishedAt
    }
}
