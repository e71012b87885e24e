import Foundation
import Locking
import RedisClient
import Testing

/// The Redis client against a real Redis Cluster of three masters and three replicas (``RedisClusterServers``), one
/// per test. One after another: a cluster's failure detection counts on its nodes answering within the node timeout,
/// which six clusters at once on two cores would stretch.
// A time limit per test: a client that lost a reply must fail the run, not hang it.
@Suite(.serialized, .timeLimit(.minutes(2))) struct RedisClusterTests {
    @Test func aClusterURLNamesItsSeeds() throws {
        let configuration = try #require(RedisConfiguration(url: "redis-cluster://:secret@10.0.0.1:7000,10.0.0.2:7001/"))
        #expect(configuration.clusterSeeds == [RedisNodeAddress(host: "10.0.0.1", port: 7000), RedisNodeAddress(host: "10.0.0.2", port: 7001)])
        #expect(configuration.password == "secret")
        #expect(RedisConfiguration(url: "redis-cluster://10.0.0.1") == nil)
        #expect(RedisConfiguration(url: "redis-cluster://10.0.0.1:7000/3") == nil)
        #expect(RedisConfiguration(url: "redis://127.0.0.1:6379")?.clusterSeeds == [])
    }

    /// Keys over many hash tags spread over every master and read back; the slot of a key is the one Redis works out,
    /// and a `SCAN` by a tag's pattern finds that tag's keys.
    @Test func keysOverManyHashTagsLandOnEveryMasterAndReadBack() async throws {
        try await RedisClusterServers.with { cluster in
            let redis = RedisPool(configuration: cluster.configuration)
            let tricky = ["123456789", "{user1000}.following", "foo{}{bar}", "foo{{bar}}zap", "foo{bar}{zap}", "{}", "é{ü}", "plain"]
            let node = cluster.node(cluster.ports[0])
            for key in tricky {
                #expect(RedisKeySlot.of(key) == Int(try await node.send(["CLUSTER", "KEYSLOT", key]).int ?? -1), "\(key)")
            }
            #expect(RedisKeySlot.of("123456789") == 12739)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<300 { group.addTask { try await redis.send(["SET", "{tenant-\(index)}:name", "value-\(index)"]) } }
                try await group.waitForAll()
            }
            let sizes = try await redis.sendToEveryMaster(["DBSIZE"]).mapValues { Int($0.int ?? 0) }
            #expect(sizes.count == 3)
            #expect(sizes.values.allSatisfy { $0 > 0 })
            #expect(sizes.values.reduce(0, +) == 300)
            for index in 0..<300 { #expect(try await redis.send(["GET", "{tenant-\(index)}:name"]).string == "value-\(index)") }
            for index in 0..<40 { try await redis.send(["SET", "{scanned}:\(index)", "x"]) }
            var found: Set<String> = []
            var cursor = "0"
            repeat {
                let reply = try await redis.send(["SCAN", cursor, "MATCH", "{scanned}:*", "COUNT", "10"]).array ?? []
                cursor = reply.first?.string ?? "0"
                found.formUnion((reply.count > 1 ? reply[1].array ?? [] : []).compactMap(\.string))
            } while cursor != "0"
            #expect(found == Set((0..<40).map { "{scanned}:\($0)" }))
            #expect(try await Self.redirectedCalls(["set", "get", "scan"], through: redis) == 0)
            let unroutable = await #expect(throws: RedisError.self) { try await redis.send(["SCAN", "0", "MATCH", "*"]) }
            #expect(unroutable?.isUnavailable == false)
            try await node.close()
            try await redis.close()
        }
    }

    /// A pipeline over keys of every master, and a keyless command among them: one exchange per node, and the replies
    /// in the order of the commands.
    @Test func aPipelineSpanningNodesAnswersInOrder() async throws {
        try await RedisClusterServers.with { cluster in
            let redis = RedisPool(configuration: cluster.configuration)
            var commands: [[String]] = []
            var expected: [RedisValue?] = []
            for index in 0..<100 {
                commands += [["SET", "{p-\(index)}:v", String(index)], ["INCRBY", "{p-\(index)}:n", String(index)], ["GET", "{p-\(index)}:v"]]
                expected += [.status("OK"), .integer(Int64(index)), .bulk(Array(String(index).utf8))]
                if index == 50 {
                    commands.append(["TIME"])
                    expected.append(nil)
                }
            }
            let replies = try await redis.pipeline(commands)
            #expect(replies.count == commands.count)
            for (reply, expected) in zip(replies, expected) {
                if let expected { #expect(reply == expected) } else { #expect(reply.array?.count == 2) }
            }
            #expect(try await Self.redirectedCalls(["set", "incrby", "get"], through: redis) == 0)
            try await redis.close()
        }
    }

    /// `load` puts the scripts on every master; a `SCRIPT FLUSH` on one master costs its calls a `NOSCRIPT` and a
    /// reload, and every call still runs once, in order.
    @Test func scriptsRunOnEveryMasterAndRecoverFromAFlushOnOne() async throws {
        try await RedisClusterServers.with { cluster in
            let redis = RedisPool(configuration: cluster.configuration)
            let add = RedisScript(name: "test-add", source: "return redis.call('INCRBY', KEYS[1], ARGV[1])")
            try await redis.load([add])
            let digest = try #require(try await redis.send(["EVAL", "return redis.sha1hex(ARGV[1])", "0", add.source]).string)
            let loaded = try await redis.sendToEveryMaster(["SCRIPT", "EXISTS", digest])
            #expect(loaded.count == 3)
            #expect(loaded.values.allSatisfy { $0 == .array([.integer(1)]) })
            let calls = (0..<60).map { RedisScriptCall(add, keys: ["{s-\($0)}:n"], arguments: ["1"]) }
            #expect(try await redis.evaluate(calls) == Array(repeating: .integer(1), count: 60))
            #expect(try await Self.redirectedCalls(["evalsha"], through: redis) == 0)
            let flushed = try await cluster.master(ofSlot: RedisKeySlot.of("{s-0}:n"))
            let node = cluster.node(flushed.port)
            try await node.send(["SCRIPT", "FLUSH"])
            #expect(try await node.send(["SCRIPT", "EXISTS", digest]) == .array([.integer(0)]))
            #expect(try await redis.evaluate(calls) == Array(repeating: .integer(2), count: 60))
            #expect(try await node.send(["SCRIPT", "EXISTS", digest]) == .array([.integer(1)]))
            // Flushed everywhere at once, as a test cleaning up would.
            _ = try await redis.sendToEveryMaster(["SCRIPT", "FLUSH"])
            #expect(try await redis.evaluate(calls) == Array(repeating: .integer(3), count: 60))
            try await node.close()
            try await redis.close()
        }
    }

    /// A slot moved as `redis-cli --cluster reshard` moves it: while it migrates, the keys already moved are read through
    /// `ASK` (`ASKING` and the command on the importing node), new keys are written there, and scripts run there; once
    /// it has moved, the first command meets `MOVED` and the next ones go straight to the new master.
    @Test func aMovingSlotIsFollowedByAskThenMoved() async throws {
        try await RedisClusterServers.with { cluster in
            let redis = RedisPool(configuration: cluster.configuration)
            let slot = RedisKeySlot.of("{moving}")
            let keys = (0..<10).map { "{moving}:\($0)" }
            for (index, key) in keys.enumerated() { try await redis.send(["SET", key, String(index)]) }
            let source = try await cluster.master(ofSlot: slot)
            let masters = try await cluster.masters()
            let target = try #require(masters.first { $0.id != source.id })
            let sourceNode = cluster.node(source.port)
            let targetNode = cluster.node(target.port)
            try await targetNode.send(["CLUSTER", "SETSLOT", String(slot), "IMPORTING", source.id])
            try await sourceNode.send(["CLUSTER", "SETSLOT", String(slot), "MIGRATING", target.id])
            try await sourceNode.send(["MIGRATE", "127.0.0.1", String(target.port), "", "0", "5000", "KEYS"] + keys[..<5])
            let askingBefore = try await Self.commandStatistic("asking", "calls", on: targetNode)

            let during = try await redis.pipeline(keys.map { ["GET", $0] })
            #expect(during == (0..<10).map { .bulk(Array(String($0).utf8)) })
            try await redis.send(["SET", "{moving}:new", "written while moving"])
            let add = RedisScript(name: "test-add", source: "return redis.call('INCRBY', KEYS[1], ARGV[1])")
            #expect(try await redis.evaluate(RedisScriptCall(add, keys: [keys[3]], arguments: ["10"])) == .integer(13))
            #expect(try await Self.commandStatistic("asking", "calls", on: targetNode) > askingBefore)
            // The new key went where the slot is going (which takes commands for it only after `ASKING`).
            #expect(try await targetNode.pipeline([["ASKING"], ["EXISTS", "{moving}:new"]])[1] == .integer(1))

            try await sourceNode.send(["MIGRATE", "127.0.0.1", String(target.port), "", "0", "5000", "KEYS"] + keys[5...])
            for master in masters { try await cluster.node(master.port).send(["CLUSTER", "SETSLOT", String(slot), "NODE", target.id]) }
            let rejectedBefore = try await Self.commandStatistic("get", "rejected_calls", on: sourceNode)
            for (index, key) in keys.enumerated() {
                #expect(try await redis.send(["GET", key]).string == String(index == 3 ? 13 : index))
            }
            #expect(try await redis.send(["GET", "{moving}:new"]).string == "written while moving")
            // Only the first read after the move met `MOVED`: the pool updated its map from it.
            #expect(try await Self.commandStatistic("get", "rejected_calls", on: sourceNode) == rejectedBefore + 1)
            #expect(try await targetNode.send(["DBSIZE"]).int == 11)
            for node in [sourceNode, targetNode] { try await node.close() }
            try await redis.close()
        }
    }

    /// Blocking pops wait on the master of their key, each on a connection of its own, and wake when pushed to; a blocking
    /// `XREAD` goes to the master of the stream it names after `STREAMS`.
    @Test func blockingPopsWaitOnEachNode() async throws {
        try await RedisClusterServers.with { cluster in
            let redis = RedisPool(configuration: cluster.configuration)
            // One list on each master.
            var lists: [Int: String] = [:]
            for index in 0..<100 where lists.count < 3 {
                let list = "{wake-\(index)}:list"
                let master = try await cluster.master(ofSlot: RedisKeySlot.of(list)).port
                if lists[master] == nil { lists[master] = list }
            }
            #expect(lists.count == 3)
            try await withThrowingTaskGroup(of: RedisValue.self) { group in
                for list in lists.values { group.addTask { try await redis.sendBlocking(["BLPOP", list, "10"], blockFor: .seconds(10)) } }
                for list in lists.values {
                    var pushed = false
                    // The push only lands once the BLPOP waits; before that the list just holds the token.
                    for _ in 0..<200 where !pushed { pushed = try await redis.send(["RPUSH", list, "token"]).int == 1 }
                }
                var woken: Set<String> = []
                for try await reply in group { woken.insert(reply.array?.first?.string ?? "") }
                #expect(woken == Set(lists.values))
            }
            for list in lists.values {
                let stream = list.replacingOccurrences(of: ":list", with: ":events")
                let id = try #require(try await redis.send(["XADD", stream, "*", "n", "1"]).string)
                let read = try await redis.sendBlocking(
                    ["XREAD", "COUNT", "10", "BLOCK", "100", "STREAMS", stream, "0"], blockFor: .milliseconds(100))
                #expect(read.array?.first?.array?.last?.array?.first?.array?.first?.string == id)
            }
            #expect(try await Self.redirectedCalls(["blpop", "rpush", "xadd", "xread"], through: redis) == 0)
            try await redis.close()
        }
    }

    /// A master killed (`SIGKILL`) under a steady stream of writes to every master: while its slots have no master, the
    /// writes to them fail as unavailable, each within the command timeout and never with another error; once its
    /// replica is promoted they succeed, and every write acknowledged before or after the kill reads back.
    @Test func aKilledMastersReplicaTakesOverAndNoAcknowledgedWriteIsLost() async throws {
        try await RedisClusterServers.with { cluster in
            var configuration = cluster.configuration
            configuration.commandTimeout = .seconds(2)
            configuration.connectTimeout = .milliseconds(500)
            let redis = RedisPool(configuration: configuration)
            let victimSlot = RedisKeySlot.of("{victim}")
            let victim = try await cluster.master(ofSlot: victimSlot)
            let record = Locked(WriteRecord())
            let writing = Task {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for writer in 0..<8 {
                        group.addTask {
                            var sequence = 0
                            while !record.withLock({ $0.done }) {
                                sequence += 1
                                let key = "{w\(writer)-\(sequence % 64)}:\(sequence)"
                                let start = ContinuousClock.now
                                let outcome: Result<Void, any Error>
                                do {
                                    try await redis.send(["SET", key, String(sequence)])
                                    outcome = .success(())
                                } catch {
                                    outcome = .failure(error)
                                }
                                let took = start.duration(to: .now)
                                let onVictim = victim.serves(RedisKeySlot.of(key))
                                record.withLock { $0.note(key: key, value: String(sequence), outcome: outcome, took: took, onVictim: onVictim) }
                                if case .failure = outcome { try await Task.sleep(for: .milliseconds(20)) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
            while record.withLock({ $0.acknowledged.count < 2_000 }) { try await Task.sleep(for: .milliseconds(20)) }
            let failover = try await cluster.killMaster(ofSlot: victimSlot)
            record.withLock { $0.promoted = true }
            // Until a write to one of the victim's slots succeeds through its promoted replica.
            _ = try await Eventually.holds(every: .milliseconds(20)) { record.withLock { $0.victimWrittenAfterPromotion } }
            record.withLock { $0.done = true }
            try await writing.value
            let result = record.withLock { $0 }
            print(
                "redis cluster failover: node timeout \(RedisClusterServers.nodeTimeout), replica promoted \(failover.took) after the kill;",
                "\(result.acknowledged.count) writes acknowledged, \(result.unavailable.victim) to its slots and \(result.unavailable.elsewhere) to others'",
                "failed as unavailable,",
                "longest call \(result.longest), unavailable for \(result.outage ?? .zero) (first to last failure)")
            #expect(failover.promoted.port != victim.port)
            #expect(result.victimWrittenAfterPromotion)
            #expect(result.otherErrors == [])
            #expect(result.longest < configuration.commandTimeout + .seconds(1))
            // A read that fails (the client still learning the new master of a slot) is not a lost write: it is read
            // again until the cluster answers. A write is lost when its key answers with another value, or none.
            var unread = Array(result.acknowledged.keys)
            var lost: [String: String] = [:]
            var failedReads: [String] = []
            for _ in 0..<50 where !unread.isEmpty {
                let stored = try await redis.pipeline(unread.map { ["GET", $0] })
                var again: [String] = []
                for (key, value) in zip(unread, stored) {
                    if case .error(let message) = value {
                        again.append(key)
                        failedReads.append(message)
                    } else if value.string != result.acknowledged[key] {
                        lost[key] = value.string ?? "nil"
                    }
                }
                unread = again
                if !unread.isEmpty { try await Task.sleep(for: .milliseconds(100)) }
            }
            print("redis cluster failover read-back: \(failedReads.count) reads failed and were read again \(Array(Set(failedReads).prefix(3)))")
            #expect(unread == [], "never read back")
            #expect(lost == [:])
            try await redis.close()
        }
    }

    /// The writes of the failover test, as its writers saw them.
    private struct WriteRecord: Sendable {
        var acknowledged: [String: String] = [:]
        /// Calls that failed as unavailable, to the killed master's slots and to the others'.
        var unavailable = (victim: 0, elsewhere: 0)
        var otherErrors: [String] = []
        var longest: Duration = .zero
        var firstFailure: ContinuousClock.Instant?
        var lastFailure: ContinuousClock.Instant?
        var promoted = false
        var victimWrittenAfterPromotion = false
        var done = false

        var outage: Duration? { firstFailure.flatMap { first in lastFailure.map { first.duration(to: $0) } } }

        mutating func note(key: String, value: String, outcome: Result<Void, any Error>, took: Duration, onVictim: Bool) {
            longest = max(longest, took)
            switch outcome {
            case .success:
                acknowledged[key] = value
                if promoted && onVictim { victimWrittenAfterPromotion = true }
            case .failure(let error as RedisError) where error.isUnavailable:
                if onVictim { unavailable.victim += 1 } else { unavailable.elsewhere += 1 }
                firstFailure = firstFailure ?? .now
                lastFailure = .now
            case .failure(let error):
                otherErrors.append("\(error)")
            }
        }
    }

    /// A figure of `INFO commandstats` for one command on one node (`calls`, `rejected_calls` …), 0 when absent.
    private static func commandStatistic(_ command: String, _ field: String, on node: RedisPool) async throws -> Int {
        commandStatistic(command, field, in: try await node.send(["INFO", "commandstats"]).string ?? "")
    }

    /// The calls of `commands` that any master answered with a redirect (`MOVED`, `ASK`): 0 when the pool sent each
    /// straight to the master of its key.
    private static func redirectedCalls(_ commands: [String], through redis: RedisPool) async throws -> Int {
        let infos = try await redis.sendToEveryMaster(["INFO", "commandstats"]).values.compactMap(\.string)
        return infos.reduce(0) { sum, info in sum + commands.reduce(0) { $0 + commandStatistic($1, "rejected_calls", in: info) } }
    }

    private static func commandStatistic(_ command: String, _ field: String, in info: String) -> Int {
        guard let line = info.split(separator: "\r\n").first(where: { $0.hasPrefix("cmdstat_\(command):") }) else { return 0 }
        let fields = line.drop { $0 != ":" }.dropFirst().split(separator: ",")
        return fields.first { $0.hasPrefix("\(field)=") }.flatMap { Int($0.dropFirst(field.count + 1)) } ?? 0
    }
}
