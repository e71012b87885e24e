public import KilnCore
public import Logging
public import PostgresClient

/// The tenants: created by an operator, read by the API to authenticate and by the queue for weights and caps.
public struct TenantStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Adds a tenant; throws ``StoreError/Code/alreadyExists`` when the id is taken, ``StoreError/Code/invalidArgument``
    /// for an empty name, a weight outside 1–1000 or a running cap below 1.
    public func create(id: TenantID, name: String, weight: Int = 1, runningCap: Int = 8, diagnostics: Bool = false) async throws -> Tenant {
        guard !name.isEmpty else { throw StoreError(.invalidArgument, "a tenant needs a name") }
        guard (1...1000).contains(weight) else { throw StoreError(.invalidArgument, "weight must be between 1 and 1000") }
        guard runningCap >= 1 else { throw StoreError(.invalidArgument, "running cap must be at least 1") }
        let rows: PostgresRows
        do {
            rows = try await pool.query(
                """
                INSERT INTO tenants (id, name, weight, running_cap, diagnostics) VALUES ($1, $2, $3, $4, $5)
                RETURNING \(Tenant.columns)
                """,
                [id.rawValue, name, weight, runningCap, diagnostics]
            )
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(.alreadyExists, "tenant \(id) already exists")
        }
        guard let row = rows.first else { throw StoreError(.invalidRecord, "creating tenant \(id) returned no row") }
        let tenant = try Tenant(row: row)
        logger.info("tenant created", metadata: ["tenant.id": "\(id)"])
        return tenant
    }

    /// Every tenant, by id.
    public func list() async throws -> [Tenant] {
        try await pool.query("SELECT \(Tenant.columns) FROM tenants ORDER BY id").map(Tenant.init(row:))
    }

    public func find(id: TenantID) async throws -> Tenant? {
        try await pool.query("SELECT \(Tenant.columns) FROM tenants WHERE id = $1", [id.rawValue]).first.map(Tenant.init(row:))
    }
}
