public import KilnCore

/// One `kiln worker` process as its last heartbeat described it (``FleetRegistry``).
public struct WorkerHeartbeat: Sendable, Hashable {
    /// The attempts a worker runs of one class for one tenant.
    public struct Lane: Sendable, Hashable, Codable {
        public let jobClass: JobClass
        public let tenant: String
        public let running: Int

        public init(jobClass: JobClass, tenant: String, running: Int) {
            self.jobClass = jobClass
            self.tenant = tenant
            self.running = running
        }
    }

    /// The worker's id (`--id`, by default host and pid): the `worker` of the jobs it claims.
    public let id: String
    public let host: String
    public let pid: Int32
    /// The classes it serves, with how many jobs of each it runs at once.
    public let classes: [JobClass: Int]
    /// The Kiln release it runs, with the commit as build metadata (`1.0.0+0123456789ab`).
    public let version: String
    /// When the process started, in milliseconds since 1970 (its own clock).
    public let startedAtMilliseconds: Int64
    /// Its running attempts by class and tenant.
    public let lanes: [Lane]
    /// Each step of its provider routes: circuit, park and concurrency slots.
    public let providers: [ProviderReading]
    /// When Redis received its last beat, in milliseconds since 1970 (Redis's clock); 0 until it was sent.
    public internal(set) var lastBeatMilliseconds: Int64 = 0

    public init(
        id: String, host: String, pid: Int32, classes: [JobClass: Int], version: String, startedAtMilliseconds: Int64, lanes: [Lane],
        providers: [ProviderReading]
    ) {
        self.id = id
        self.host = host
        self.pid = pid
        self.classes = classes
        self.version = version
        self.startedAtMilliseconds = startedAtMilliseconds
        self.lanes = lanes
        self.providers = providers
    }

    /// How many attempts it runs in all.
    public var running: Int { lanes.reduce(0) { $0 + $1.running } }
}

extension WorkerHeartbeat: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, host, pid, classes, version, startedAtMilliseconds = "started_ms", lanes, providers
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let classes = try container.decode([String: Int].self, forKey: .classes)
        self.init(
            id: try container.decode(String.self, forKey: .id), host: try container.decode(String.self, forKey: .host),
            pid: try container.decode(Int32.self, forKey: .pid),
            classes: Dictionary(uniqueKeysWithValues: classes.compactMap { name, count in JobClass(rawValue: name).map { ($0, count) } }),
            version: try container.decode(String.self, forKey: .version),
            startedAtMilliseconds: try container.decode(Int64.self, forKey: .startedAtMilliseconds),
            lanes: try container.decode([Lane].self, forKey: .lanes), providers: try container.decode([ProviderReading].self, forKey: .providers))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(host, forKey: .host)
        try container.encode(pid, forKey: .pid)
        try container.encode(Dictionary(uniqueKeysWithValues: classes.map { ($0.key.rawValue, $0.value) }), forKey: .classes)
        try container.encode(version, forKey: .version)
        try container.encode(startedAtMilliseconds, forKey: .startedAtMilliseconds)
        try container.encode(lanes, forKey: .lanes)
        try container.encode(providers, forKey: .providers)
    }
}
