import NIOCore
import Locking

/// A Redis Cluster as the pool uses it: the slot map, and connections to each master (``RedisNodeConnections``).
///
/// Each command goes to the master serving its key's slot (``RedisCommandRoute``). A pipeline or a batch of script
/// calls is split by node, one exchange per node, all in parallel, and the replies are put back in the callers' order.
/// A node's answer that a command did not run there is followed (``RedisClusterAnswer``): `MOVED` updates the map and
/// has the whole map asked for again in the background, `ASK` sends `ASKING` and the command to the importing node, and
/// `TRYAGAIN` or `CLUSTERDOWN` send the command again after a short pause, until the command timeout; then it fails,
/// unavailable. A master that cannot be connected to has the pool ask another node for the map, so a promoted replica
/// is followed; while the map still names the dead master, its callers fail at once, unavailable. A command that was
/// sent is never sent again, whatever happens to its connection: it may have run.
final class RedisCluster: Sendable {
    private struct State {
        var map: RedisSlotMap?
        var nodes: [RedisNodeAddress: RedisNodeConnections] = [:]
        /// Nodes that could not be connected to since the map was last read: asked for it last.
        var unreachable: Set<RedisNodeAddress> = []
        var refreshing: Task<RedisSlotMap, any Error>?
        var askedAt: ContinuousClock.Instant?
        /// Why no node gave the map, when the last request for it failed.
        var failure: (any Error)?
        var closed = false
    }

    /// The commands one node gets in one exchange.
    private struct Batch: Hashable {
        let node: RedisNodeAddress
        /// Each command follows `ASKING`: an `ASK` redirect sent it to this node.
        let asking: Bool
    }

    /// The least time between two requests for the slot map: a burst of redirects or failed connects asks once.
    static let refreshInterval: Duration = .milliseconds(100)
    /// The wait before sending again commands the cluster refused for now (`TRYAGAIN`, `CLUSTERDOWN`).
    static let retryPause: Duration = .milliseconds(50)

    private let configuration: RedisConfiguration
    private let group: any EventLoopGroup
    private let scripts: RedisScriptRegistry
    private let state = Locked(State())

    init(configuration: RedisConfiguration, group: any EventLoopGroup, scripts: RedisScriptRegistry) {
        self.configuration = configuration
        self.group = group
        self.scripts = scripts
    }

    func send(_ arguments: [String]) async throws -> RedisValue {
        try await pipeline([arguments])[0].checked()
    }

    func pipeline(_ commands: [[String]]) async throws -> [RedisValue] {
        try await exchange(commands, routes: try commands.map(RedisCommandRoute.init)) { node, commands, asking in
            try await node.connection().exchange(commands: commands, asking: asking)
        }
    }

    func evaluate(_ calls: [RedisScriptCall]) async throws -> [RedisValue] {
        try await exchange(calls, routes: calls.map(RedisCommandRoute.init)) { [scripts] node, calls, asking in
            try await scripts.run(calls, on: node.connection(), asking: asking)
        }
    }

    /// On the blocking connections of the node serving the command's key; a blocked command that its node gives up
    /// (`MOVED` when its slot moved, `CLUSTERDOWN`) is followed like any other.
    func sendBlocking(_ arguments: [String], blockFor: Duration) async throws -> RedisValue {
        let replies = try await exchange([arguments], routes: [try RedisCommandRoute(arguments)], patience: blockFor) { node, commands, asking in
            do {
                return [try await node.blocking.send(commands[0], blockFor: blockFor, asking: asking)]
            } catch let error as RedisError where error.isServerError {
                return [.error(error.message)]
            }
        }
        return try replies[0].checked()
    }

    func sendToEveryMaster(_ arguments: [String]) async throws -> [RedisNodeAddress: RedisValue] {
        try await onEveryMaster { node in try await node.connection().send(arguments) }
    }

    /// Loads the scripts on every master; connections opened later load them as they open.
    func load(_ scripts: [RedisScript]) async throws {
        _ = try await onEveryMaster { [self] node in try await self.scripts.load(scripts, on: node.connection()) }
    }

    func close() {
        let (nodes, refreshing) = state.withLock { state in
            state.closed = true
            defer { state.nodes = [:] }
            return (Array(state.nodes.values), state.refreshing)
        }
        refreshing?.cancel()
        for node in nodes { node.close() }
    }

    private func onEveryMaster<Result: Sendable>(
        _ body: @escaping @Sendable (RedisNodeConnections) async throws -> Result
    ) async throws -> [RedisNodeAddress: Result] {
        let nodes = try await currentMap().masters.map(node)
        return try await withThrowingTaskGroup(of: (RedisNodeAddress, Result).self) { group in
            for node in nodes { group.addTask { (node.address, try await body(node)) } }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
    }

    /// Sends `items`, each to the node its route names, with one exchange per node made by `send`, all in parallel;
    /// follows the cluster's answers until every item has its reply, which come back in the items' order. Refusals
    /// for now are sent again for the command timeout plus `patience` (a blocking command's wait), then thrown.
    private func exchange<Item: Sendable>(
        _ items: [Item], routes: [RedisCommandRoute], patience: Duration = .zero,
        send: @escaping @Sendable (RedisNodeConnections, [Item], _ asking: Bool) async throws -> [RedisValue]
    ) async throws -> [RedisValue] {
        let deadline = ContinuousClock.now + configuration.commandTimeout + patience
        var replies = [RedisValue?](repeating: nil, count: items.count)
        // Each item still to send, with where a redirect sent it (`MOVED`: the new master; `ASK`: the importing node).
        var pending: [(index: Int, redirect: Batch?)] = items.indices.map { ($0, nil) }
        // Nodes this call could not connect to: a map that still names one fails the call.
        var unreached: [RedisNodeAddress: any Error] = [:]
        var refusal: RedisError?
        var rounds = 0
        while !pending.isEmpty {
            rounds += 1
            let map = try await currentMap()
            var batches: [Batch: [Int]] = [:]
            var unserved: [Int] = []
            for (index, redirect) in pending {
                let node: RedisNodeAddress
                if let redirect {
                    node = redirect.node
                } else if case .slot(let slot) = routes[index] {
                    guard let master = map.master(ofSlot: slot) else {
                        unserved.append(index)
                        continue
                    }
                    node = master
                } else {
                    guard let master = map.masters.shuffled().first(where: { unreached[$0] == nil }) else {
                        throw unreached.values.first ?? RedisError.connect("the cluster has no master")
                    }
                    node = master
                }
                if let error = unreached[node] { throw error }
                batches[Batch(node: node, asking: redirect?.asking ?? false), default: []].append(index)
            }
            pending = unserved.map { ($0, nil) }
            if !unserved.isEmpty { refusal = RedisError.server("CLUSTERDOWN Hash slot not served") }
            let work = try batches.map { batch, indices in (batch, indices, try node(batch.node)) }
            var outcomes: [(Batch, [Int], Result<[RedisValue], any Error>)] = []
            if work.count == 1, case let (batch, indices, node)? = work.first {
                // One node, as for most calls: no task of its own.
                outcomes = [(batch, indices, await Self.outcome { try await send(node, indices.map { items[$0] }, batch.asking) })]
            } else {
                outcomes = await withTaskGroup(of: (Batch, [Int], Result<[RedisValue], any Error>).self) { group in
                    for (batch, indices, node) in work {
                        let batchItems = indices.map { items[$0] }
                        group.addTask { (batch, indices, await Self.outcome { try await send(node, batchItems, batch.asking) }) }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
            }
            var failure: (any Error)?
            var mapMayBeStale = false
            var refused = !unserved.isEmpty
            for (batch, indices, outcome) in outcomes {
                switch outcome {
                case .failure(let error as RedisError) where error.neverSent:
                    unreached[batch.node] = error
                    pending += indices.map { ($0, nil) }
                case .failure(let error):
                    // Sent and lost: the command may have run, so it is not sent again; the node may be gone.
                    failure = failure ?? error
                    mapMayBeStale = mapMayBeStale || (error as? RedisError)?.isUnavailable == true
                case .success(let batchReplies):
                    for (index, reply) in zip(indices, batchReplies) {
                        switch RedisClusterAnswer(reply, from: batch.node) {
                        case .moved(let slot, let master)?:
                            state.withLock { $0.map?.assign(slot, to: master) }
                            mapMayBeStale = true
                            pending.append((index, Batch(node: master, asking: false)))
                        case .ask(_, let importing)?:
                            pending.append((index, Batch(node: importing, asking: true)))
                        case .retryLater?:
                            refusal = reply.serverError ?? refusal
                            refused = true
                            pending.append((index, batch.asking ? batch : nil))
                        case nil:
                            replies[index] = reply
                        }
                    }
                }
            }
            if mapMayBeStale { refreshInBackground() }
            if let failure { throw failure }
            guard !pending.isEmpty else { break }
            if ContinuousClock.now >= deadline {
                throw refusal ?? RedisError.timeout("the cluster still redirected the command when the command timeout passed")
            }
            if !unreached.isEmpty {
                state.withLock { $0.unreachable.formUnion(unreached.keys) }
                // When no node answers, the map stays as it is and the next round fails on the unreached node.
                _ = try? await refresh()
            }
            // Redirects are followed at once; a refusal, or redirects that go on, wait a little before the next round.
            if refused || rounds > 3 { try await Task.sleep(for: min(Self.retryPause, ContinuousClock.now.duration(to: deadline))) }
        }
        return replies.map { $0 ?? .null }
    }

    /// The connections of the node at `address`, made on first use.
    private func node(_ address: RedisNodeAddress) throws -> RedisNodeConnections {
        try state.withLock { state throws(RedisError) in
            guard !state.closed else { throw RedisError.poolClosed }
            if let node = state.nodes[address] { return node }
            let node = RedisNodeConnections(address, configuration: configuration, group: group, scripts: scripts)
            state.nodes[address] = node
            return node
        }
    }

    /// The slot map, asked for first when the pool has none.
    private func currentMap() async throws -> RedisSlotMap {
        if let map = state.withLock({ $0.map }) { return map }
        return try await refresh()
    }

    /// Has the slot map asked for again without waiting for it (after a `MOVED`, or a connection lost).
    private func refreshInBackground() {
        // Unstructured on purpose: the caller's command is done, and the map is the pool's, not the caller's.
        Task { _ = try? await self.refresh() }
    }

    /// Asks the cluster for its slot map again, unless that was done less than ``refreshInterval`` ago (then the map as
    /// it is, or the failure of that request); callers arriving while it is asked for share the answer.
    @discardableResult
    private func refresh() async throws -> RedisSlotMap {
        enum Step {
            case use(RedisSlotMap)
            case fail(any Error)
            case wait(Task<RedisSlotMap, any Error>)
        }
        let step = state.withLock { state -> Step in
            if state.closed { return .fail(RedisError.poolClosed) }
            if let refreshing = state.refreshing { return .wait(refreshing) }
            if let askedAt = state.askedAt, askedAt.duration(to: .now) < Self.refreshInterval {
                if let map = state.map { return .use(map) }
                if let failure = state.failure { return .fail(failure) }
            }
            let refreshing = Task { try await self.discover() }
            state.refreshing = refreshing
            return .wait(refreshing)
        }
        switch step {
        case .use(let map): return map
        case .fail(let error): throw error
        case .wait(let refreshing): return try await refreshing.value
        }
    }

    /// Asks the nodes for the slot map in turn — the masters, their replicas, the seeds, those lately unreachable last —
    /// until one answers, and retires the connections of nodes no longer masters.
    private func discover() async throws -> RedisSlotMap {
        let (known, unreachable) = state.withLock { state in
            ((state.map?.masters ?? []) + (state.map?.replicas ?? []) + configuration.clusterSeeds, state.unreachable)
        }
        var candidates: [RedisNodeAddress] = []
        for address in known.filter({ !unreachable.contains($0) }) + known.filter(unreachable.contains) where !candidates.contains(address) {
            candidates.append(address)
        }
        var failure: any Error = RedisError.connect("no node of the cluster is known")
        for address in candidates {
            do {
                let map = try await askForMap(at: address)
                guard !map.masters.isEmpty else {
                    failure = RedisError.protocolViolation("\(address) knows no master of the cluster")
                    continue
                }
                let retired = state.withLock { state -> [RedisNodeConnections] in
                    state.refreshing = nil
                    state.askedAt = .now
                    state.failure = nil
                    guard !state.closed else { return [] }
                    state.map = map
                    state.unreachable = []
                    let retired = state.nodes.filter { !map.masters.contains($0.key) }
                    for address in retired.keys { state.nodes[address] = nil }
                    return Array(retired.values)
                }
                for node in retired { node.close() }
                return map
            } catch {
                failure = error
            }
        }
        state.withLock { [failure] state in
            state.refreshing = nil
            state.askedAt = .now
            state.failure = failure
        }
        throw failure
    }

    /// The slot map as the node at `address` sees it, on a connection of its own.
    private func askForMap(at address: RedisNodeAddress) async throws -> RedisSlotMap {
        var configuration = configuration
        configuration.host = address.host
        configuration.port = address.port
        let connection = try await RedisConnection.connect(configuration, on: group.next())
        defer { connection.close() }
        do {
            return try RedisSlotMap(shards: try await connection.send(["CLUSTER", "SHARDS"]), askedHost: address.host)
        } catch let error as RedisError where error.code == "ERR" && error.message.lowercased().contains("unknown subcommand") {
            // Before Redis 7.
            return try RedisSlotMap(slots: try await connection.send(["CLUSTER", "SLOTS"]), askedHost: address.host)
        }
    }

    private static func outcome(_ exchange: () async throws -> [RedisValue]) async -> Result<[RedisValue], any Error> {
        do {
            return .success(try await exchange())
        } catch {
            return .failure(error)
        }
    }
}
