public import Foundation
public import KilnCore
import PostgresClient

/// One app using Kiln.
public struct Tenant: Sendable, Hashable {
    public var id: TenantID
    /// A human-readable name, for operators.
    public var name: String
    /// Its share of claims against other tenants' when all have work, 1–1000.
    public var weight: Int
    /// The cap on running jobs the queue enforces for this tenant, at least 1.
    public var runningCap: Int
    /// Whether the diagnostic job kinds (`diag.*`) are accepted from it.
    public var diagnostics: Bool
    public var createdAt: Date

    public init(id: TenantID, name: String, weight: Int, runningCap: Int, diagnostics: Bool, createdAt: Date) {
        self.id = id
        self.name = name
        self.weight = weight
        self.runningCap = runningCap
        self.diagnostics = diagnostics
        self.createdAt = createdAt
    }
}

extension Tenant {
    /// The columns ``init(row:)`` reads, in a `tenants` row.
    static let columns = "id, name, weight, running_cap, diagnostics, created_at"

    init(row: PostgresRow) throws {
        self.init(
            id: try row.decode("id", as: TenantID.self),
            name: try row.decode("name", as: String.self),
            weight: try row.decode("weight", as: Int.self),
            runningCap: try row.decode("running_cap", as: Int.self),
            diagnostics: try row.decode("diagnostics", as: Bool.self),
            createdAt: try row.decode("created_at", as: Date.self)
        )
    }
}
