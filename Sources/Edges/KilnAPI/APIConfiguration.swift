/// Limits and timings of the API node.
public struct APIConfiguration: Sendable {
    /// Address to bind.
    public var host: String = "127.0.0.1"
    /// Port to listen on.
    public var port: Int = 8787
    /// The largest `POST /v1/jobs` body; pictures and other large inputs go through `POST /v1/uploads`. 2 MiB holds a
    /// `document.export` of a 200-page campaign (about 600 KB of text) with room to spare.
    public var maxJobBodyBytes: Int = 2 * 1024 * 1024
    /// The largest upload.
    public var maxUploadBytes: Int = 20 * 1024 * 1024
    /// How long a verified API key is trusted before it is checked again (so a revocation takes effect within it).
    /// While PostgreSQL is out of reach a key's last verdict stands; a revocation takes effect once it answers again.
    public var keyCacheTTL: Duration = .seconds(2)
    /// How long a published page (`GET /s/{slug}`) is served from this node's memory before PostgreSQL is asked again;
    /// a revocation through another node takes effect within it. Zero asks every time.
    public var sharePageCacheTTL: Duration = .seconds(1)
    /// Behind a proxy you trust, the header that carries the client's address (its first entry, as in
    /// `X-Forwarded-For`); nil uses the connection's peer address. Per-IP velocity counts by this address, so behind a
    /// proxy without it every client would share the proxy's.
    public var clientAddressHeader: String? = nil
    /// How often an idle event stream sends a comment, so proxies keep it open.
    public var eventHeartbeat: Duration = .seconds(15)
    /// How many event streams the node serves at once, in all and per tenant and identity.
    public var followers = FollowerLimits()
    /// How long the node writing an MCP answer is taken to be alive without renewing its lease on it (it renews it every
    /// third of that): a client resuming the answer of a node gone for longer gets an error instead of waiting.
    public var mcpAnswerLease: Duration = .seconds(30)
    /// How long a connection may send nothing, before its request is whole or between requests, before it is closed:
    /// a client that opens connections and sends half a request cannot hold them for ever. A response being written
    /// (an event stream too) is never cut.
    public var idleTimeout: Duration = .seconds(30)

    /// The Kiln release this node runs, which `/healthz` answers with.
    public var version: String = "dev"
    /// The commit this node was built from, which `/healthz` answers with.
    public var commit: String = "unknown"

    public init() {}

    /// The most event streams (`GET /v1/jobs/{id}/events`, MCP's `GET` streams) a node serves at once. A stream costs
    /// the node a socket and a few kilobytes, not a Redis connection (docs/operations.md, "Sizing a node for
    /// followers"); the node's descriptor limit must allow ``perNode`` sockets and some.
    public struct FollowerLimits: Sendable {
        /// Past it, `503` with `Retry-After`: the client tries again, perhaps on another node.
        public var perNode: Int = 20_000
        /// Past it, `429` with `Retry-After`.
        public var perTenant: Int = 20_000
        /// Past it, `429` with `Retry-After`: one end user's app follows a few jobs at once (Talevonia's three
        /// continuations), not dozens.
        public var perIdentity: Int = 32

        public init() {}
    }
}
