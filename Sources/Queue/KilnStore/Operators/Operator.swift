public import Foundation
public import KilnCore
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
    /// The tenants whose data it sees and acts on; nil for every tenant.
    public var tenants: [TenantID]?
    public var createdAt: Date
    public var revokedAt: Date?

    public init(name: String, role: Role, tenants: [TenantID]? = nil, createdAt: Date, revokedAt: Date?) {
        self.name = name
        self.role = role
        self.tenants = tenants
        self.createdAt = createdAt
        self.revokedAt = revokedAt
    }

    /// Whether this operator may act, not only look.
    public var mayAct: Bool { role == .operator }

    /// Whether it sees and acts on `tenant`'s data.
    public func sees(_ tenant: TenantID) -> Bool {
        tenants?.contains(tenant) ?? true
    }
}

extension Operator {
    /// The columns ``init(row:)`` reads, in an `operators` row.
    static let columns = "name, role, tenants, created_at, revoked_at"

    init(row: PostgresRow) throws {
        let role = try row.decode("role", as: String.self)
        guard let known = Role(rawValue: role) else { throw StoreError(.invalidRecord, "unknown operator role \(role)") }
        let tenants = try row.decode("tenants", as: [String]?.self).map { names in
            try names.map { name in
                guard let tenant = TenantID(validating: name) else { throw StoreError(.invalidRecord, "operator scoped to \(name), not a tenant id") }
                return tenant
            }
        }
        self.init(
            name: try row.decode("name", as: String.self), role: known, tenants: tenants, createdAt: try row.decode("created_at", as: Date.self),
            revokedAt: try row.decode("revoked_at", as: Date?.self))
    }
}
