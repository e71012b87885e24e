public import Foundation
public import KilnCore
import PostgresClient

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

extension JobRecord {
    /// The columns ``init(row:)`` reads, in a `jobs` row.
    static let columns = """
        id, tenant_id, identity, kind, priority, state, attempt, max_attempts, input, result, error_code, error_message,
        created_at, started_at, finished_at
        """

    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id", as: JobID.self),
            tenant: try row.decode("tenant_id", as: TenantID.self),
            identity: try row.decode("identity", as: Identity.self),
            kind: try row.decode("kind", as: String.self),
            priority: try row.decode("priority", as: Priority.self),
            state: try row.decode("state", as: JobState.self),
            attempt: try row.decode("attempt", as: Int.self),
            maxAttempts: try row.decode("max_attempts", as: Int.self),
            input: try row.decode("input", as: String.self),
            result: try row.decode("result", as: String?.self),
            errorCode: try row.decode("error_code", as: String?.self),
            errorMessage: try row.decode("error_message", as: String?.self),
            createdAt: try row.decode("created_at", as: Date.self),
            startedAt: try row.decode("started_at", as: Date?.self),
            finishedAt: try row.decode("finished_at", as: Date?.self)
        )
    }
}
