public import Foundation
public import KilnCore
public import Logging
public import PostgresClient

/// The console's operators and their sessions. A token is shown once at creation and kept only as its hash; a
/// session's secret lives only in the browser's cookie, and its hash is the session's id.
public struct OperatorStore: Sendable {
    private let pool: PostgresPool
    private let logger: Logger

    public init(pool: PostgresPool, logger: Logger? = nil) {
        self.pool = pool
        self.logger = logger ?? .disabled
    }

    /// Adds an operator and returns its token, this once. Throws ``StoreError/Code/alreadyExists`` when the name is
    /// taken and ``StoreError/Code/invalidArgument`` for a name that is empty, longer than 64 characters or not
    /// letters, digits, `.`, `_`, `-` and `@`.
    /// - Parameter tenants: the tenants it sees and acts on; nil for every tenant.
    public func create(name: String, role: Operator.Role, tenants: [TenantID]? = nil) async throws -> (operator: Operator, token: String) {
        guard Self.isValidName(name) else {
            throw StoreError(.invalidArgument, "an operator's name is 1–64 letters, digits, '.', '_', '-' or '@'")
        }
        let token = "kop_" + RandomSecret.hex(byteCount: 32)
        let rows: PostgresRows
        do {
            rows = try await pool.query(
                "INSERT INTO operators (name, role, token_hash, tenants) VALUES ($1, $2, $3, $4) RETURNING \(Operator.columns)",
                [name, role.rawValue, Digest.sha256Hex(token), tenants.map { $0.map(\.rawValue) }])
        } catch let error as PostgresError where error.isUniqueViolation {
            throw StoreError(.alreadyExists, "operator \(name) already exists")
        }
        guard let row = rows.first else { throw StoreError(.invalidRecord, "creating operator \(name) returned no row") }
        logger.info("operator created", metadata: ["operator": "\(name)", "role": "\(role.rawValue)"])
        return (try Operator(row: row), token)
    }

    /// Every operator, revoked ones included, by name.
    public func list() async throws -> [Operator] {
        try await pool.query("SELECT \(Operator.columns) FROM operators ORDER BY name").map(Operator.init(row:))
    }

    /// Revokes an operator and ends its sessions; nil when no active operator has that name.
    public func revoke(name: String) async throws -> Operator? {
        try await pool.withTransaction { connection in
            let revoked = try await connection.query(
                "UPDATE operators SET revoked_at = now() WHERE name = $1 AND revoked_at IS NULL RETURNING \(Operator.columns)", [name]
            ).first.map(Operator.init(row:))
            if revoked != nil { _ = try await connection.query("DELETE FROM operator_sessions WHERE operator = $1", [name]) }
            return revoked
        }
    }

    /// Exchanges an active operator's token for a session lasting `lifetime`: the session's secret, for the cookie.
    /// Nil for an unknown or revoked token.
    public func signIn(token: String, lifetime: Duration) async throws -> (operator: Operator, secret: String, expiresAt: Date)? {
        let secret = RandomSecret.hex(byteCount: 32)
        let rows = try await pool.query(
            """
            WITH signed AS (
                SELECT \(Operator.columns) FROM operators WHERE token_hash = $1 AND revoked_at IS NULL
            ), opened AS (
                INSERT INTO operator_sessions (id, operator, expires_at)
                SELECT $2, name, now() + make_interval(secs => $3) FROM signed
                RETURNING expires_at
            )
            SELECT signed.*, opened.expires_at FROM signed, opened
            """,
            [Digest.sha256Hex(token), Digest.sha256Hex(secret), Double(lifetime.components.seconds)])
        guard let row = rows.first else { return nil }
        // Expired sessions go as new ones come, so the table holds only the live ones.
        _ = try await pool.query("DELETE FROM operator_sessions WHERE expires_at < now()")
        return (try Operator(row: row), secret, try row.decode("expires_at", as: Date.self))
    }

    /// The operator whose unexpired session has `secret`; nil for an unknown, expired or revoked one.
    public func session(secret: String) async throws -> Operator? {
        try await pool.query(
            """
            SELECT o.name, o.role, o.tenants, o.created_at, o.revoked_at FROM operator_sessions s JOIN operators o ON o.name = s.operator
            WHERE s.id = $1 AND s.expires_at > now() AND o.revoked_at IS NULL
            """,
            [Digest.sha256Hex(secret)]
        ).first.map(Operator.init(row:))
    }

    /// Ends the session with `secret`.
    public func signOut(secret: String) async throws {
        _ = try await pool.query("DELETE FROM operator_sessions WHERE id = $1", [Digest.sha256Hex(secret)])
    }

    private static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count)
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0)) }
    }
}
