/// Where PostgreSQL is and how long to wait for it.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection URI, `postgresql://user:password@host:port/database?parameter=value`, or a `key=value`
    /// connection string. The fields below take precedence over the same parameters in it.
    public var url: String
    /// How long a connection attempt may take; libpq counts whole seconds, at least 2.
    public var connectTimeout: Duration = .seconds(5)
    /// How long one statement may run before the server cancels it; zero lets statements run without limit.
    public var statementTimeout: Duration = .seconds(30)
    /// The most connections the pool opens.
    public var poolSize: Int = 8
    /// Shown in `pg_stat_activity`, so operators can tell Kiln's sessions apart.
    public var applicationName: String = "kiln"
    /// The one schema that unqualified names resolve to, set as `search_path` after connecting; the server's
    /// default when nil. Tests give each case a schema of its own.
    public var searchPath: String? = nil

    public init(url: String) {
        self.url = url
    }

    /// `connect_timeout` in whole seconds, rounded up so a short timeout never becomes "wait forever" (0).
    var connectTimeoutSeconds: Int64 {
        let (seconds, attoseconds) = connectTimeout.components
        return max(1, seconds + (attoseconds > 0 ? 1 : 0))
    }

    /// `statement_timeout` in whole milliseconds, rounded up so a short timeout never disables the limit.
    var statementTimeoutMilliseconds: Int64 {
        let (seconds, attoseconds) = statementTimeout.components
        return max(0, seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
