public import Foundation
import PostgresClient

/// Someone who runs Kiln and signs in to the console, with credentials of their own, apart from tenants' keys.
public struct Operator: Sendable, Hashable {
    /// What an operator may do in the console.
    public enum Role: String, Sendable, CaseIterable {
        /// Looks at everything the console shows; every action is refused, on the server too.
        case viewer
        /// Looks and acts: cancels, retries, replays, discards, pauses, creates and revokes keys, lifts blocks.
        case `operator`
    }

    public var name: String
    public var role: Role
    public var createdAt: Date
    public var revokedAt: Date?

    public init(name: String, role: Role, createdAt: Date, revokedAt: Date?) {
        self.name = name
        self.role = role
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// Whether this operator may act, not only look.
    public var mayAct: Bool { role == .operator }
}

extension Operator {
    /// The columns ``init(row:)`` reads, in an `operators` row.
    static let columns = "name, role, created_at, revoked_at"

    init(row: PostgresRow) throws {
        let role = try row.decode("role", as: String.self)
        guard let known = Role(rawValue: role) else { throw StoreError(.invalidRecord, "unknown operator role \(role)") }
        self.init(
            name: try row.decode("name", as: String.self), role: known, createdAt: try row.decode("created_at", as: Date.self),
            revokedAt: try row.decode("revoked_at", as: Date?.self))
    }
}
