import Foundation
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
