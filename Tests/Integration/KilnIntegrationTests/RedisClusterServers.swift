import Foundation
import Glibc
import KilnCore
import RedisClient
import Spawning

/// A Redis Cluster of the test's own on loopback: three masters and three replicas, each a `redis-server` with
/// `--cluster-enabled yes` and AOF everysec as deployed, in a directory of its own, joined by `redis-cli --cluster
/// create`. A test can kill a master and wait for its replica to take over. Suites point Kiln at it with ``url`` or
/// ``configuration``; ``with(_:)`` starts one and removes it all afterwards.
final class RedisClusterServers {
    /// How long a node may stay silent before the others count it failed: short, so a failover takes seconds.
    static let nodeTimeout: Duration = .milliseconds(1500)

    /// The nodes' ports; each node's cluster bus listens on its port + 10,000.
    let ports: [Int]
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-cluster-\(UUID().uuidString.prefix(8))")
    private var processes: [Int: SpawnedProcess] = [:]

    init() throws {
        ports = try (0..<6).map { _ in try TestPorts.reserve(bus: true) }
    }

    /// Starts a cluster, runs `body` with it, and stops it and removes its files however `body` ends.
    static func with<Result>(_ body: (RedisClusterServers) async throws -> Result) async throws -> Result {
        let cluster = try RedisClusterServers()
        defer { cluster.remove() }
        try await cluster.start()
        return try await body(cluster)
    }

    /// The URL that points Kiln at the cluster (`KILN_REDIS_URL`, `--redis-url`).
    var url: String { "redis-cluster://" + ports.map { "127.0.0.1:\($0)" }.joined(separator: ",") }

    /// How the test reaches the cluster through ``RedisPool``.
    var configuration: RedisConfiguration {
        var configuration = RedisConfiguration()
        configuration.clusterSeeds = ports.map { RedisNodeAddress(host: "127.0.0.1", port: $0) }
        configuration.port = ports[0]
        return configuration
    }

    /// A pool of a single node's own, for what a test asks one node (`CLUSTER SETSLOT`, `SCRIPT FLUSH`, `INFO`).
    func node(_ port: Int) -> RedisPool {
        var configuration = RedisConfiguration()
        configuration.port = port
        return RedisPool(configuration: configuration)
    }

    /// Starts the six nodes, makes them a cluster (a replica per master), and waits until every node says it is ok.
    func start() async throws {
        for port in ports {
            let directory = directory.appendingPathComponent(String(port))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            processes[port] = try SpawnedProcess(
                [
                    "redis-server", "--port", String(port), "--bind", "127.0.0.1", "--dir", directory.path, "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf", "--cluster-node-timeout", String(Self.nodeTimeout.milliseconds),
                    "--appendonly", "yes", "--appendfsync", "everysec", "--maxmemory-policy", "noeviction", "--save", "",
                ], stdout: .null, stderr: .null)
        }
        for port in ports { try await waitUntil("node \(port) answers") { try await self.ask(port, ["PING"]) != nil } }
        let create = try SpawnedProcess(
            ["redis-cli", "--cluster", "create"] + ports.map { "127.0.0.1:\($0)" } + ["--cluster-replicas", "1", "--cluster-yes"],
            stdout: .null, stderr: .null)
        let created = await create.exit()
        guard created.succeeded else { throw TestFailure("redis-cli --cluster create exited with \(created.shellStatus)") }
        try await waitUntilHealthy(ports)
    }

    /// What the node at `port` says of the cluster's nodes (`CLUSTER NODES`).
    func nodes(seenBy port: Int) async throws -> [ClusterNode] {
        let text = try await ask(port, ["CLUSTER", "NODES"])?.string ?? ""
        return text.split(separator: "\n").compactMap(ClusterNode.init)
    }

    /// The master serving `slot`, as the first live node sees it.
    func master(ofSlot slot: Int) async throws -> ClusterNode {
        let live = ports.filter { processes[$0]?.isRunning == true }
        guard let port = live.first, let master = try await nodes(seenBy: port).first(where: { $0.isMaster && $0.serves(slot) }) else {
            throw TestFailure("no master serves slot \(slot)")
        }
        return master
    }

    /// The masters serving slots, as the first node sees them.
    func masters() async throws -> [ClusterNode] {
        try await nodes(seenBy: ports[0]).filter { $0.isMaster && !$0.slots.isEmpty }
    }

    /// Kills the master serving `slot` (`SIGKILL`: no AOF flush, no goodbye), once its replicas have everything it had
    /// written when asked, and waits until a replica serves the slot and every live node says the cluster is ok.
    /// - Returns: the master killed, the one promoted, and the time from the kill to the promotion seen.
    ///
    /// Redis replicates asynchronously: a write its replica has not received is lost by any failover, which is Redis's
    /// documented trade-off and not what a test of the client asks. On a loaded machine a replica was seen `up` at
    /// offset 0 for the whole second of writes before the kill.
    func killMaster(ofSlot slot: Int) async throws -> (killed: ClusterNode, promoted: ClusterNode, took: Duration) {
        let killed = try await master(ofSlot: slot)
        let written = try await replicationOffsets(of: killed.port).master
        try await waitUntil("the replicas of \(killed.port) have its writes up to offset \(written)") {
            let offsets = try await self.replicationOffsets(of: killed.port)
            return !offsets.replicas.isEmpty && offsets.replicas.allSatisfy { $0 >= written }
        }
        let start = ContinuousClock.now
        guard let process = processes[killed.port] else { throw TestFailure("node \(killed.port) is not one of this cluster's") }
        process.signal(SIGKILL)
        _ = await process.exit()
        let live = ports.filter { $0 != killed.port }
        var promoted: ClusterNode?
        try await waitUntil("a replica of \(killed.port) takes over slot \(slot)") {
            let master = try await self.nodes(seenBy: live[0]).first { $0.isMaster && !$0.isFailed && $0.serves(slot) }
            promoted = master?.port == killed.port ? nil : master
            return promoted != nil
        }
        let took = start.duration(to: .now)
        try await waitUntilHealthy(live)
        guard let promoted else { throw TestFailure("no replica of \(killed.port) took over") }
        return (killed, promoted, took)
    }

    /// Stops every node and removes their files.
    func remove() {
        for process in processes.values { process.signal(SIGKILL) }
        for process in processes.values { _ = process.waitUntilExit() }
        processes = [:]
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        remove()
    }

    /// Waits until every node of `ports` says `cluster_state:ok` and sees the same three masters serving all slots and
    /// the others as their replicas, each of which has its link to its master up (a replica that never synced cannot
    /// take over).
    private func waitUntilHealthy(_ ports: [Int]) async throws {
        try await waitUntil("the cluster is ok on \(ports)") {
            var views: Set<String> = []
            for port in ports {
                guard let info = try await self.ask(port, ["CLUSTER", "INFO"])?.string, info.contains("cluster_state:ok") else { return false }
                let nodes = try await self.nodes(seenBy: port).filter { !$0.isFailed }
                let masters = nodes.filter { $0.isMaster && !$0.slots.isEmpty }
                let replicas = nodes.filter { $0.flags.contains("slave") }
                guard masters.count == 3, replicas.count == ports.count - 3 else { return false }
                views.insert(masters.map { "\($0.id) \($0.slots)" }.sorted().joined(separator: "\n"))
                if replicas.contains(where: { $0.port == port }) {
                    guard try await self.ask(port, ["INFO", "replication"])?.string?.contains("master_link_status:up") == true else { return false }
                }
            }
            return views.count == 1
        }
    }

    /// Sends one command to one node; nil when it cannot be reached.
    private func ask(_ port: Int, _ arguments: [String]) async throws -> RedisValue? {
        let redis = node(port)
        let reply: RedisValue?
        do {
            reply = try await redis.send(arguments)
        } catch let error as RedisError where error.isUnavailable {
            reply = nil
        }
        try await redis.close()
        return reply
    }

    /// Polls `condition` every 100 ms for up to 60 s (a loaded machine slows a cluster's gossip down).
    /// How far a master's replication stream has gone, and how far each of its replicas has acknowledged it
    /// (`INFO replication`: `master_repl_offset`, and the `offset=` of each `slaveN:` line).
    private func replicationOffsets(of port: Int) async throws -> (master: Int, replicas: [Int]) {
        let info = try await ask(port, ["INFO", "replication"])?.string ?? ""
        var master = 0
        var replicas: [Int] = []
        for line in info.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("master_repl_offset:") {
                master = Int(line.dropFirst("master_repl_offset:".count)) ?? 0
            } else if line.hasPrefix("slave"), line.contains("state="),
                let field = line.split(separator: ",").first(where: { $0.hasPrefix("offset=") })
            {
                replicas.append(Int(field.dropFirst("offset=".count)) ?? 0)
            }
        }
        return (master, replicas)
    }

    private func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        if !(try await Eventually.holds(every: .milliseconds(100), condition)) { throw TestFailure("timed out waiting until \(what)") }
    }
}

/// One line of `CLUSTER NODES`: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot ranges…>`.
struct ClusterNode: Sendable, Equatable {
    let id: String
    let port: Int
    let flags: Set<String>
    let slots: [ClosedRange<Int>]

    init?(_ line: Substring) {
        let fields = line.split(separator: " ")
        guard fields.count >= 8, let address = fields[1].split(separator: "@").first, let colon = address.lastIndex(of: ":"),
            let port = Int(address[address.index(after: colon)...])
        else { return nil }
        id = String(fields[0])
        self.port = port
        flags = Set(fields[2].split(separator: ",").map(String.init))
        // Slot ranges are `a-b` or `a`; entries in brackets are slots migrating, not served.
        slots = fields.dropFirst(8).compactMap { field in
            guard !field.hasPrefix("[") else { return nil }
            let bounds = field.split(separator: "-").compactMap { Int($0) }
            return bounds.isEmpty ? nil : bounds[0]...(bounds.last ?? bounds[0])
        }
    }

    var isMaster: Bool { flags.contains("master") }
    var isFailed: Bool { flags.contains("fail") || flags.contains("fail?") }
    func serves(_ slot: Int) -> Bool { slots.contains { $0.contains(slot) } }
}
