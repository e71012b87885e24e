public import KilnCore

/// Every Redis key Kiln uses in one shard of a namespace: the queue's, admission's and the providers'.
///
/// Every key starts with the shard's hash tag — `{<namespace>}` when the namespace has one shard, one per shard when it
/// has several (`QueueShards` names them) — so one Redis Cluster slot holds a shard's keys and a script never touches
/// two slots. The scripts build their keys with Lua helpers generated from the same patterns (``luaHelpers``); nothing else spells
/// a key.
public struct KeySpace: Sendable, Hashable {
    /// The hash-tagged prefix of every key.
    public let base: String

    /// The keys of a namespace of one shard.
    public init(namespace: String) {
        self.init(tag: namespace)
    }

    /// The keys under the hash tag `{tag}`: one shard's.
    public init(tag: String) {
        self.base = "{\(tag)}"
    }

    // MARK: Jobs

    public func job(_ id: JobID) -> String { KeyPattern.job.render(base, [id.rawValue]) }
    /// A job's capped stream of events.
    public func events(_ id: JobID) -> String { KeyPattern.events.render(base, [id.rawValue]) }
    /// Per identity, so one end user's key never answers with another's job; digested, so no identity and key pair can
    /// spell another's.
    public func idempotency(_ tenant: TenantID, _ identity: Identity, _ key: String) -> String {
        KeyPattern.idempotency.render(base, [tenant.rawValue, Digest.sha256Hex(identity.rawValue + "\n" + key)])
    }

    // MARK: The queue

    /// A tenant's jobs of one class and priority waiting to be claimed.
    public func ready(_ jobClass: JobClass, _ tenant: String, _ priority: Priority) -> String {
        KeyPattern.ready.render(base, [jobClass.rawValue, tenant, String(priority.rank)])
    }
    /// The tenants with ready jobs of a class, scored by their virtual time.
    public func active(_ jobClass: JobClass) -> String { KeyPattern.active.render(base, [jobClass.rawValue]) }
    public func virtualClock(_ jobClass: JobClass) -> String { KeyPattern.virtualClock.render(base, [jobClass.rawValue]) }
    /// The list idle workers of a class block on.
    public func wake(_ jobClass: JobClass) -> String { KeyPattern.wake.render(base, [jobClass.rawValue]) }
    /// One worker's own wake-up list, beside its class's.
    public func wake(_ jobClass: JobClass, worker: String) -> String { wake(jobClass) + ":" + worker }
    public var weights: String { KeyPattern.weights.render(base, []) }
    public var inflight: String { KeyPattern.inflight.render(base, []) }
    public var delayed: String { KeyPattern.delayed.render(base, []) }
    public var dead: String { KeyPattern.dead.render(base, []) }
    public var unrecorded: String { KeyPattern.unrecorded.render(base, []) }
    /// An identity's count of running jobs (its cap), and its jobs the cap holds back.
    public func running(_ tenant: TenantID, _ identity: String) -> String { KeyPattern.running.render(base, [tenant.rawValue, identity]) }
    public func held(_ tenant: TenantID, _ identity: String) -> String { KeyPattern.held.render(base, [tenant.rawValue, identity]) }
    /// What an identity owns on this shard that no key name of its own leads to: its jobs and the keys that point at
    /// them (docs/privacy.md, "The index of what an identity owns").
    public func owned(_ tenant: TenantID, _ identity: Identity) -> String { KeyPattern.owned.render(base, [tenant.rawValue, identity.rawValue]) }

    // MARK: Admission

    /// A quota subject's counters of one quota day.
    public func quota(_ tenant: TenantID, _ subject: String, _ day: String) -> String {
        KeyPattern.quota.render(base, [tenant.rawValue, subject, day])
    }
    /// A quota subject's reservations, one per unfinished job.
    public func reservations(_ tenant: TenantID, _ subject: String) -> String {
        KeyPattern.reservations.render(base, [tenant.rawValue, subject])
    }
    /// A quota subject's block (its value is the reason), and the index of blocks by when they end.
    public func block(_ tenant: TenantID, _ subject: String) -> String { KeyPattern.block.render(base, [tenant.rawValue, subject]) }
    public var blocks: String { KeyPattern.blocks.render(base, []) }
    /// Abuse detection: the devices a subject used in a quota day, the subjects a device served in one, and a
    /// subject's velocity (GCRA).
    public func devices(_ tenant: TenantID, _ subject: String, _ day: String) -> String {
        KeyPattern.devices.render(base, [tenant.rawValue, subject, day])
    }
    public func subjects(_ tenant: TenantID, device: String, _ day: String) -> String {
        KeyPattern.subjects.render(base, [tenant.rawValue, device, day])
    }
    public func velocity(_ tenant: TenantID, _ subject: String) -> String { KeyPattern.velocity.render(base, [tenant.rawValue, subject]) }
    /// An operator's block of a device or an address (its value is the reason), on every shard; and, on the control
    /// shard, the index of operators' blocks by when they end (`<kind>|<tenant>|<value>`).
    public func deviceBlock(_ tenant: TenantID, _ device: String) -> String { KeyPattern.deviceBlock.render(base, [tenant.rawValue, device]) }
    public func addressBlock(_ tenant: TenantID, _ address: String) -> String {
        KeyPattern.addressBlock.render(base, [tenant.rawValue, address])
    }
    public var operatorBlocks: String { KeyPattern.operatorBlocks.render(base, []) }
    /// An identity's standing (quota subject, entitled tier), cached from PostgreSQL.
    public func standing(_ tenant: TenantID, _ identity: String) -> String { KeyPattern.standing.render(base, [tenant.rawValue, identity]) }
    /// The abuse log: a capped stream of the trips of abuse thresholds.
    public var abuseLog: String { KeyPattern.abuseLog.render(base, []) }

    /// A `SCAN … MATCH` pattern of every key of the namespace.
    public var everyKey: String { base + ":*" }

    /// The start of every key of `pattern` whose first values are `values` (for `SCAN … MATCH <prefix>*`).
    public func prefix(_ pattern: KeyPattern, _ values: String...) -> String { pattern.prefix(base, values) }

    // MARK: Providers

    /// The slots of calls in flight to one provider's model, fleet-wide.
    public func providerSlots(_ provider: String, model: String) -> String { KeyPattern.providerSlots.render(base, [provider, model]) }
    /// Present while a provider is parked; expires when the park ends.
    public func providerParked(_ provider: String) -> String { KeyPattern.providerParked.render(base, [provider]) }

    // MARK: The fleet

    /// A worker's heartbeat: what it serves and runs, and its providers' readings; expires after missed beats.
    public func worker(_ id: String) -> String { KeyPattern.worker.render(base, [id]) }
    /// The workers by the time of their last beat.
    public var workers: String { KeyPattern.workers.render(base, []) }
    /// One minute's counts of attempts ended, by class and by tenant (the minute since 1970).
    public func throughput(minute: Int64) -> String { KeyPattern.throughput.render(base, [String(minute)]) }
    /// The same counts by ten minutes, kept for a day's chart (the ten minutes since 1970).
    public func throughputHistory(tenMinutes: Int64) -> String { KeyPattern.throughputHistory.render(base, [String(tenMinutes)]) }
    /// The lanes operators paused: `tenant:<id>` and `class:<name>` members; claims skip them.
    public var paused: String { KeyPattern.paused.render(base, []) }
    /// The identities with jobs their running cap holds back (`<tenant>:<identity>`), for counting held jobs.
    public var holders: String { KeyPattern.holders.render(base, []) }
    /// The version of the format the namespace's data is kept in (docs/compatibility.md), on the control shard.
    public var dataFormat: String { KeyPattern.dataFormat.render(base, []) }
    /// An API node's wake-up stream on this shard: a client that starts following a stream here adds an entry, which
    /// ends the node's read of the shard's followed streams so the next read names it too. It holds one entry and
    /// expires an hour after the last.
    public func followersWake(node: String) -> String { KeyPattern.followersWake.render(base, [node]) }

    // MARK: Erasure

    /// Present for a while after the identity's erasure completed: another is refused until it expires. Named by a
    /// digest of the identity, so the erased identity's name is not what stays.
    public func erased(_ tenant: TenantID, _ identity: Identity) -> String {
        KeyPattern.erased.render(base, [tenant.rawValue, Digest.sha256Hex(identity.rawValue)])
    }
    /// The tenant's erasures of the current minute.
    public func erasures(_ tenant: TenantID) -> String { KeyPattern.erasures.render(base, [tenant.rawValue]) }

    // MARK: MCP

    /// An MCP session: its tenant, identity and protocol version.
    public func mcpSession(_ session: String) -> String { KeyPattern.mcpSession.render(base, [session]) }
    /// The messages of one SSE answer of a session, kept (capped) so a client can resume it on any node.
    public func mcpStream(_ session: String, _ stream: String) -> String { KeyPattern.mcpStream.render(base, [session, stream]) }
    /// The job a session's request runs, so a cancellation reaching any node finds it.
    public func mcpRequest(_ session: String, _ request: String) -> String { KeyPattern.mcpRequest.render(base, [session, request]) }
    /// The lease of the node writing an SSE answer of a session, renewed while it runs: a resumed answer whose lease
    /// lapsed before its response ends with an error rather than waiting for ever.
    public func mcpProducer(_ session: String, _ stream: String) -> String { KeyPattern.mcpProducer.render(base, [session, stream]) }

    /// The Lua helpers of every pattern, put in front of each script.
    public static let luaHelpers = KeyPattern.all.map(\.luaFunction).joined(separator: "\n")
}

extension KeyPattern {
    public static let job = KeyPattern("job", .word("job"), .value("id"))
    static let events = KeyPattern("events", .word("ev"), .value("id"))
    public static let idempotency = KeyPattern("idempotency", .word("idem"), .value("tenant"), .value("digest"))
    static let ready = KeyPattern("ready", .word("ready"), .value("class"), .value("tenant"), .value("rank"))
    static let active = KeyPattern("active", .word("active"), .value("class"))
    static let virtualClock = KeyPattern("vclock", .word("vclock"), .value("class"))
    static let wake = KeyPattern("wake", .word("wake"), .value("class"))
    static let weights = KeyPattern("weights", .word("weights"))
    static let inflight = KeyPattern("inflight", .word("inflight"))
    static let delayed = KeyPattern("delayed", .word("delayed"))
    static let dead = KeyPattern("dead", .word("dead"))
    static let unrecorded = KeyPattern("unrecorded", .word("unrecorded"))
    static let running = KeyPattern("running", .word("running"), .value("tenant"), .value("identity"))
    static let held = KeyPattern("held", .word("held"), .value("tenant"), .value("identity"))
    public static let owned = KeyPattern("owned", .word("owned"), .value("tenant"), .value("identity"))
    // Admission: a subject (the identity whose quota pays, or a pair of partners) has one counter hash a quota day,
    // one hash of its unfinished jobs' reservations, and maybe a block; a device has a cooldown per quota class.
    public static let quota = KeyPattern("quota", .word("quota"), .value("tenant"), .value("subject"), .value("day"))
    static let reservations = KeyPattern("reservations", .word("rsv"), .value("tenant"), .value("subject"))
    static let block = KeyPattern("block", .word("block"), .value("tenant"), .value("subject"))
    static let blocks = KeyPattern("blocks", .word("blocks"))
    public static let cooldown = KeyPattern("cooldown", .word("cooldown"), .value("tenant"), .value("device"), .value("class"))
    // Abuse detection: the devices a subject used and the subjects a device served in a quota day, the velocity
    // (GCRA theoretical arrival time) of a subject and of an IP address, the blocks in force and the log of trips.
    public static let devices = KeyPattern("devices", .word("devs"), .value("tenant"), .value("subject"), .value("day"))
    public static let subjects = KeyPattern("subjects", .word("subs"), .value("tenant"), .value("device"), .value("day"))
    static let velocity = KeyPattern("velocity", .word("gcra"), .value("tenant"), .value("who"))
    static let deviceBlock = KeyPattern("device_block", .word("bdev"), .value("tenant"), .value("device"))
    static let addressBlock = KeyPattern("address_block", .word("baddr"), .value("tenant"), .value("address"))
    static let operatorBlocks = KeyPattern("operator_blocks", .word("opblocks"))
    static let standing = KeyPattern("standing", .word("ent"), .value("tenant"), .value("identity"))
    static let abuseLog = KeyPattern("abuse_log", .word("abuse"))
    static let providerSlots = KeyPattern("provider_slots", .word("provider"), .value("provider"), .value("model"), .word("slots"))
    static let providerParked = KeyPattern("provider_parked", .word("provider"), .value("provider"), .word("parked"))
    // The fleet (docs/queue.md, "The fleet"): workers' heartbeats, throughput per minute and per ten minutes, paused lanes, held jobs; and the
    // format the namespace's data is in.
    static let worker = KeyPattern("worker", .word("worker"), .value("id"))
    static let workers = KeyPattern("workers", .word("workers"))
    static let throughput = KeyPattern("throughput", .word("tp"), .value("minute"))
    static let throughputHistory = KeyPattern("throughput_history", .word("tph"), .value("ten_minutes"))
    static let paused = KeyPattern("paused", .word("paused"))
    static let holders = KeyPattern("holders", .word("holders"))
    static let dataFormat = KeyPattern("format", .word("format"))
    static let followersWake = KeyPattern("followers_wake", .word("follow"), .value("node"))
    // Erasure's limits (docs/privacy.md), on the control shard.
    static let erased = KeyPattern("erased", .word("erased"), .value("tenant"), .value("digest"))
    static let erasures = KeyPattern("erasures", .word("erasures"), .value("tenant"))
    // MCP (docs/mcp.md): sessions, the answers' streams kept for resumption and their writers' leases, and the jobs of
    // requests in flight.
    static let mcpSession = KeyPattern("mcp_session", .word("mcp"), .word("session"), .value("session"))
    static let mcpStream = KeyPattern("mcp_stream", .word("mcp"), .word("stream"), .value("session"), .value("stream"))
    static let mcpRequest = KeyPattern("mcp_request", .word("mcp"), .word("request"), .value("session"), .value("request"))
    static let mcpProducer = KeyPattern("mcp_producer", .word("mcp"), .word("producer"), .value("session"), .value("stream"))

    /// Every pattern, each a family of keys no other pattern's keys can be mistaken for.
    public static let all: [KeyPattern] = [
        job, events, idempotency, ready, active, virtualClock, wake, weights, inflight, delayed, dead, unrecorded, running, held, owned,
        quota, reservations, block, blocks, cooldown, devices, subjects, velocity, deviceBlock, addressBlock, operatorBlocks, standing, abuseLog,
        providerSlots, providerParked,
        worker, workers, throughput, throughputHistory, paused, holders, dataFormat, followersWake, erased, erasures,
        mcpSession, mcpStream, mcpRequest, mcpProducer,
    ]
}
