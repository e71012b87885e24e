import CurlClient
import Foundation
import KilnCore
import KilnJSON
import PostgresClient
import RedisClient
import Testing

/// Kiln on a ``HostNetwork``, each part a real process on a host of its own: Redis and PostgreSQL on the data host,
/// `kiln api` on the API host, `kiln worker`s on the worker hosts. The test is the client host: its requests to the API
/// go through a relay that opens them from there, so they cross the client's and the API's links. It reads Redis and
/// PostgreSQL as an operator on the data host would, through relays into that host.
final class HostFleet {
    /// A job as PostgreSQL recorded it.
    struct Record {
        let id: String
        let state: String
        let attempt: Int
        /// When its recorded attempt started, and when it ended, in seconds since 1970 by the workers' clock.
        let started: Double
        let finished: Double
    }

    let network: HostNetwork
    let redis: PrivateRedis
    let postgres: PrivatePostgres
    let harness: Harness
    let client: Harness.Client
    let api: APIProcess
    private let entry: TCPRelay
    /// The workers ``startWorker(on:io:redisURL:)`` started, whose logs a failed wait shows.
    private var workers: [WorkerProcess] = []

    private init(network: HostNetwork, redis: PrivateRedis, postgres: PrivatePostgres, harness: Harness) async throws {
        self.network = network
        self.redis = redis
        self.postgres = postgres
        self.harness = harness
        client = try await harness.tenant("acme")
        api = try APIProcess(harness.kilnCommand([], redisURL: redis.hostURL, databaseURL: postgres.hostURL), on: network.api)
        entry = try TCPRelay(in: nil, address: "127.0.0.1", to: network.client.namespace, network.api.address, api.port)
        let deadline = ContinuousClock.now + .seconds(120)
        while try await status("/readyz") != 200 {
            guard ContinuousClock.now < deadline, api.isRunning else { throw TestFailure("kiln api did not get ready: \(api.logText)") }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Runs `body` with a fleet on a fresh network (and no worker yet), and always takes it all down.
    static func with(_ body: (HostFleet) async throws -> Void) async throws {
        try await HostNetwork.with { network in
            let redis = try PrivateRedis(on: network.data)
            let postgres = try PrivatePostgres(on: network.data.namespace, address: network.databaseAddress)
            var harness: Harness?
            var fleet: HostFleet?
            let takeDown = {
                fleet?.entry.stop()
                await harness?.tearDown()
                await postgres.remove()
            }
            do {
                try await redis.start()
                try await postgres.start()
                harness = try await Harness(redisURL: "redis://127.0.0.1:\(redis.configuration.port)", databaseURL: postgres.url)
                fleet = try await HostFleet(network: network, redis: redis, postgres: postgres, harness: try #require(harness))
                try await body(try #require(fleet))
            } catch {
                await takeDown()
                throw error
            }
            await takeDown()
        }
    }

    /// The API's base URL, as the client host reaches it.
    var apiURL: String { "http://127.0.0.1:\(entry.port)" }

    /// Starts a worker on worker host `index` (0-based), with Redis at `redisURL` (the data host's, unless given), and
    /// waits until it runs.
    func startWorker(on index: Int, io: Int, redisURL: String? = nil) async throws -> WorkerProcess {
        let worker = try WorkerProcess(
            harness, redisURL: redisURL ?? redis.hostURL, databaseURL: postgres.hostURL, on: network.workers[index], io: io)
        let deadline = ContinuousClock.now + .seconds(120)
        while !worker.logText.contains("worker started") {
            guard ContinuousClock.now < deadline, worker.isRunning else { throw TestFailure("kiln worker did not start: \(worker.logText)") }
            try await Task.sleep(for: .milliseconds(100))
        }
        workers.append(worker)
        return worker
    }

    /// The status the API answers `GET path` with, nil when it does not answer within 10 s.
    func status(_ path: String) async throws -> Int? {
        try? await harness.http.execute(HTTPRequest(method: "GET", url: apiURL + path), timeout: .seconds(10)).status
    }

    /// Submits `count` jobs of `body`, over as many identities as `identities`, eight at a time; returns their ids.
    func submit(_ count: Int, _ body: String, identities: Int = 16) async throws -> [String] {
        let (harness, client, base) = (harness, client, apiURL)
        return try await withThrowingTaskGroup(of: [String].self) { group in
            for lane in 0..<8 {
                group.addTask {
                    var ids: [String] = []
                    for index in stride(from: lane, to: count, by: 8) {
                        let (status, json, _) = try await harness.send(
                            try harness.request("POST", "/v1/jobs", as: client, identity: "user-\(index % identities)", body: body, base: base))
                        guard status == 202, case .string(let id)? = json?["id"] else {
                            throw TestFailure("submission answered \(status): \(String(describing: json))")
                        }
                        ids.append(id)
                    }
                    return ids
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// What PostgreSQL recorded of `ids`, one entry per row (so a job recorded twice would be there twice).
    func records(_ ids: [String]) async throws -> [Record] {
        let rows = try await harness.database.query(
            """
            SELECT id::text, state, attempt, extract(epoch FROM started_at)::float8, extract(epoch FROM finished_at)::float8
            FROM jobs WHERE id::text = ANY(string_to_array($1, ','))
            """, [ids.joined(separator: ",")])
        return try rows.map {
            Record(
                id: try $0.decode(0, as: String.self), state: try $0.decode(1, as: String.self), attempt: try $0.decode(2, as: Int.self),
                started: try $0.decode(3, as: Double.self), finished: try $0.decode(4, as: Double.self))
        }
    }

    /// Waits until PostgreSQL has a record of every job of `ids` in a final state; returns the records.
    func awaitRecorded(_ ids: [String], within limit: Duration = .seconds(120)) async throws -> [Record] {
        let deadline = ContinuousClock.now + limit
        while true {
            let records = try await self.records(ids)
            let final = Set(records.filter { ["succeeded", "failed", "cancelled", "dead"].contains($0.state) }.map(\.id))
            if final.count == Set(ids).count { return records }
            guard ContinuousClock.now < deadline else {
                let logs = workers.map { "\n--- \($0.id):\n\($0.logText.suffix(4000))" }.joined()
                throw TestFailure("\(final.count) of \(ids.count) jobs recorded within \(limit); the workers' logs end:\(logs)")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    /// Jobs a second, over the span from the first attempt's start to the last job's end, as PostgreSQL recorded them.
    static func throughput(_ records: [Record]) -> Double {
        guard let first = records.map(\.started).min(), let last = records.map(\.finished).max(), last > first else { return 0 }
        return Double(records.count) / (last - first)
    }
}
