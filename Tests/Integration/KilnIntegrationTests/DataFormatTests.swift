import Foundation
import KilnCore
import KilnKeys
import KilnQueue
import RedisClient
import Spawning
import Testing

/// The format of a namespace's data in Redis (docs/compatibility.md): recorded by the first process that prepares the
/// namespace, and a process of a release that cannot read the recorded format stops at start, saying so, instead of
/// misreading the data.
@Suite struct DataFormatTests {
    @Test func aNamespaceRecordsTheFormatThisReleaseWrites() async throws {
        try await Harness.with { harness in
            let namespace = harness.redisNamespace
            let key = namespace.shards.control.dataFormat
            _ = try await namespace.redis.send(["DEL", key])
            try await namespace.prepare()
            #expect(try await namespace.redis.send(["GET", key]).string == String(DataFormat.written))
        }
    }

    /// `kiln data-format --record 2` is the upgrade's last step: while a worker of another build is alive it records
    /// nothing and says which; once none is, it records the format, and says so.
    @Test func theFormatIsRecordedOnlyOnceNoWorkerRunsAnotherBuild() async throws {
        try await Harness.with { harness in
            let namespace = harness.redisNamespace
            _ = try await namespace.redis.send(["SET", namespace.shards.control.dataFormat, "1"])
            let shown = try await AdminCommandTests.kiln(harness, ["data-format"])
            #expect(shown.status == 0 && shown.output.contains("recorded 1; this release reads 1 to 2 and writes 2"), "\(shown.output)")

            let old = WorkerHeartbeat(
                id: "old-worker", host: "h", pid: 1, classes: [.io: 1], version: "1.0.0+e4f1655", startedAtMilliseconds: 0, lanes: [],
                providers: [])
            try await namespace.fleet.beat(old, ended: OutcomeTally(), expiresAfter: .seconds(60))
            let refused = try await AdminCommandTests.kiln(harness, ["data-format", "--record", "2"])
            #expect(refused.status == 4, "\(refused.output)")
            #expect(refused.output.contains("old-worker on h runs 1.0.0+e4f1655"), "\(refused.output)")
            #expect(try await namespace.ownedIndex.recordedFormat() == 1)

            try await namespace.fleet.leave("old-worker")
            let recorded = try await AdminCommandTests.kiln(harness, ["data-format", "--record", "2"])
            #expect(recorded.status == 0 && recorded.output.contains("recorded format 2"), "\(recorded.output)")
            #expect(try await namespace.ownedIndex.recordedFormat() == 2)
            let again = try await AdminCommandTests.kiln(harness, ["data-format", "--record", "2"])
            #expect(again.status == 0 && again.output.contains("format 2 is recorded already"), "\(again.output)")
        }
    }

    @Test func processesRefuseDataInAFormatTheyCannotReadAndLeaveItAsItIs() async throws {
        try await Harness.with { harness in
            let namespace = harness.redisNamespace
            let key = namespace.shards.control.dataFormat
            let newer = String(DataFormat.readable.upperBound + 1)
            _ = try await namespace.redis.send(["SET", key, newer])
            await #expect(throws: DataFormatError.self) { try await namespace.prepare() }

            let api = try APIProcess(try harness.kilnCommand([]))
            #expect(try await api.waitForExit(within: .seconds(60)), "kiln api kept running on data it cannot read")
            #expect(await api.termination().succeeded == false)
            #expect(api.logText.contains("format \(newer)"), "kiln api did not say why: \(api.logText)")

            let worker = try WorkerProcess(harness)
            #expect(try await worker.waitForExit(within: .seconds(60)), "kiln worker kept running on data it cannot read")
            #expect(await worker.termination().succeeded == false)
            #expect(worker.logText.contains("format \(newer)"), "kiln worker did not say why: \(worker.logText)")

            #expect(try await namespace.redis.send(["GET", key]).string == newer)
            _ = try await namespace.redis.send(["SET", key, String(DataFormat.written)])
        }
    }
}
