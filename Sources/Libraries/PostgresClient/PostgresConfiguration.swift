/// Where PostgreSQL is, how many connections to keep and how long to wait for it.
///
/// The connections are driven by one event-loop thread per pool, so connecting never blocks it, as long as the URL
/// names the host by address (`127.0.0.1`, or `hostaddr=`): libpq resolves a host name with a blocking
/// `getaddrinfo`, which would stall every query of the pool while it runs.
public struct PostgresConfiguration: Sendable {
    /// A libpq connection URI, `postgresql://user:password@host:port/database?parameter=value`, or a `key=value`
    /// connection string. The fields below take precedence over the same parameters in it.
    public var url: String
    /// How long a connection attempt may take, the session's setup included.
    public var connectTimeout: Duration = .seconds(5)
    /// How long one statement may run before the server cancels it; zero lets statements run without limit.
    public var statementTimeout: Duration = .seconds(30)
    /// How long a query may wait for its answer, time in the queue included, before the client fails it; a
    /// transaction waits as long for its connection. A query that times out after it was sent closes its
    /// connection, failing the queries pipelined behind it, since a pipeline cannot withdraw one query. Keep it
    /// longer than `statementTimeout`, so that the server's own cancel answers first.
    public var queryTimeout: Duration = .seconds(35)
    /// The most connections that carry ``PostgresPool/query(_:_:)`` and ``PostgresPool/execute(_:_:)``: concurrent
    /// calls share them, pipelined. The first opens on first use, the others only while the open ones are busy.
    public var pipelinedConnections: Int = 2
    /// The most connections leased at once, each to one caller, for transactions (``PostgresPool/withTransaction(_:)``,
    /// ``PostgresPool/withConnection(_:)``); callers beyond that wait in order.
    public var leasedConnections: Int = 8
    /// The most queries and leases waiting or in flight at once; calls beyond fail at once as unavailable, so an
    /// outage or a slow server cannot make the queue grow without bound.
    public var maxPendingQueries: Int = 4096
    /// The longest wait between connection attempts after failed ones (``ReconnectBackoff``); calls made meanwhile,
    /// with no connection open, fail at once as unavailable.
    public var maxReconnectDelay: Duration = .seconds(1)
    /// Shown in `pg_stat_activity`, so operators can tell Kiln's sessions apart.
    public var applicationName: String = "kiln"
    /// The one schema that unqualified names resolve to, set as `search_path` after connecting; the server's
    /// default when nil. Tests give each case a schema of its own.
    public var searchPath: String? = nil

    public init(url: String) {
        self.url = url
    }

    /// `statement_timeout` in whole milliseconds, rounded up so a short timeout never disables the limit.
    var statementTimeoutMilliseconds: Int64 {
        max(0, statementTimeout.roundedUpMilliseconds)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up: a short positive duration never becomes 0 ("no limit", or "do not wait").
    var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
