import Foundation
import KilnCore
import PostgresClient

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
