import CurlClient
import Foundation
import Glibc
import KilnCore
import KilnQueue
import KilnStore
import Testing

/// Kiln across hosts, for real: each process on a host of its own (a network namespace, see ``HostNetwork`` and
/// ``HostFleet``), talking over veth links through a router, while links go down, routes drop packets and a proxy of the
/// test's own delays and cuts connections. Each test prints its counts; docs/faults.md has them.
@Suite(.serialized, .disabled(if: HostNetwork.unavailableReason != nil, Comment(rawValue: HostNetwork.unavailableReason ?? "")))
struct AcrossHostsTests {
    /// Jobs of a second each: a worker's slots, not the machine's two cores, bound how many finish a second.
    static let secondLongJob = #"{"kind":"diag.sleep","input":{"seconds":1,"progress_steps":2}}"#
    static let jobsPerRound = 64
    static let slotsPerWorker = 8
    /// Jobs that take no time: Redis's round trips (claims and settlements, each for many jobs at once) and the
    /// machine's two cores bound how many finish a second.
    static let instantJob = #"{"kind":"diag.echo","input":{"message":"across hosts"}}"#
    static let instantJobsPerRound = 480

    @Test func throughputAndCorrectnessWithWorkersOnOneTwoAndThreeHosts() async throws {
        try await HostFleet.with { fleet in
            var workers: [WorkerProcess] = []
            for hosts in 1...3 {
                workers.append(try await fleet.startWorker(on: hosts - 1, io: Self.slotsPerWorker))
                let records = try await Self.round(fleet, workers: workers)
                print(
                    "across hosts: workers on \(hosts) host(s), \(hosts * Self.slotsPerWorker) slots: \(records.count) jobs of 1 s recorded, "
                        + "\(records.filter { $0.state == "succeeded" }.count) succeeded, "
                        + "\(String(format: "%.1f", HostFleet.throughput(records))) jobs/s")
            }
            let instant = try await Self.round(fleet, workers: workers, jobs: Self.instantJobsPerRound, of: Self.instantJob)
            print(
                "across hosts: workers on 3 hosts: \(instant.count) instant jobs recorded, "
                    + "\(instant.filter { $0.state == "succeeded" }.count) succeeded, \(String(format: "%.1f", HostFleet.throughput(instant))) jobs/s"
            )
        }
    }

    @Test func aPartitionedWorkerHostsJobsRunElsewhereAndItsLateWritesAreFencedOff() async throws {
        try await HostFleet.with { fleet in
            let partitioned = fleet.network.workers[2]
            let cutOff = try await fleet.startWorker(on: 2, io: 8)
            let tenant = fleet.client.tenant.id
            // Four jobs end while the host is cut off, four run on past its healing (and so do their second attempts).
            let short = #"{"kind":"diag.sleep","input":{"seconds":8,"progress_steps":1}}"#
            let long = #"{"kind":"diag.sleep","input":{"seconds":30,"progress_steps":3}}"#
            // A short attempt that ended before the cut would be settled at its first attempt and never taken again: on a
            // loaded machine the submissions, the waits and the cut alone outlasted 2 s (four of eight were, once). So the
            // short jobs last 8 s and go last, the cut-off worker is frozen as soon as they run, and it goes on only once
            // cut off; the long ones outlast the leases' 5 s and the short ones' end, after which the host heals.
            let longIDs = try await fleet.submit(4, long)
            for id in longIDs { _ = try await fleet.harness.awaitRunning(try #require(JobID(validating: id)), tenant) }
            let shortIDs = try await fleet.submit(4, short)
            for id in shortIDs { _ = try await fleet.harness.awaitRunning(try #require(JobID(validating: id)), tenant) }
            cutOff.kill(SIGSTOP)
            try await fleet.network.partition(partitioned)
            let partitionedAt = ContinuousClock.now
            cutOff.kill(SIGCONT)
            let ids = shortIDs + longIDs
            let jobIDs = try ids.map { try #require(JobID(validating: $0)) }
            // Nothing the cut-off host does reaches Redis now: every job still at its first attempt must be taken again.
            for id in jobIDs {
                let job = try #require(try await fleet.harness.queue.snapshot(id, tenant: tenant))
                try #require(job.state == .running && job.attempt == 1, "job \(id) was \(job.state) at attempt \(job.attempt) when cut off")
            }
            let others = [try await fleet.startWorker(on: 0, io: 8), try await fleet.startWorker(on: 1, io: 8)]

            // The leases (5 s) run out, and the other hosts' workers take the jobs again.
            let deadline = partitionedAt + .seconds(120)
            var notTakenAgain = jobIDs.map { "\($0)" }
            while !notTakenAgain.isEmpty {
                guard ContinuousClock.now < deadline else {
                    throw TestFailure("\(jobIDs.count - notTakenAgain.count) of \(jobIDs.count) jobs taken again; not: \(notTakenAgain)")
                }
                try await Task.sleep(for: .milliseconds(100))
                notTakenAgain = []
                for id in jobIDs {
                    let job = try await fleet.harness.queue.snapshot(id, tenant: tenant)
                    if let job, job.attempt >= 2 { continue }
                    notTakenAgain.append("\(id): " + (job.map { "\($0.state) at attempt \($0.attempt)" } ?? "gone"))
                }
            }
            let reclaimedAfter = ContinuousClock.now - partitionedAt
            // Heal once the cut-off worker's short attempts have ended and it has tried to settle them (or after a minute).
            _ = try await Eventually.holds(every: .milliseconds(100)) { cutOff.logText.contains("settle and claim failed") }
            var rerunning = 0
            for id in jobIDs {
                if try await fleet.harness.queue.snapshot(id, tenant: tenant)?.state == .running { rerunning += 1 }
            }
            try await fleet.network.heal(partitioned)
            let healedAfter = ContinuousClock.now - partitionedAt

            let records = try await fleet.awaitRecorded(ids)
            // Healed, the cut-off worker tries what it could not do while cut off: to settle the attempts that ended
            // (refused: the jobs are attempt 2's now) and to renew the leases of those still running (lost: it stops them).
            var fenced = (settlements: 0, leases: 0)
            let healedBy = ContinuousClock.now + .seconds(60)
            while fenced.settlements + fenced.leases < jobIDs.count, ContinuousClock.now < healedBy {
                try await Task.sleep(for: .milliseconds(200))
                fenced = (
                    Self.jobCount(in: cutOff.logText, saying: "settlements fenced off"), Self.jobCount(in: cutOff.logText, saying: "leases lost")
                )
            }
            // Nothing the cut-off worker did after it healed got through: one record a job, of a later attempt than its own (2,
            // or more if a loaded machine stalled a second worker past its lease too).
            #expect(records.count == jobIDs.count)
            #expect(Set(records.map(\.id)) == Set(ids))
            #expect(records.allSatisfy { $0.state == "succeeded" && $0.attempt >= 2 })
            #expect(fenced.settlements + fenced.leases == jobIDs.count)
            #expect(others.allSatisfy { $0.isRunning } && cutOff.isRunning)
            print(
                "across hosts: partitioned a worker host running \(jobIDs.count) jobs; all \(jobIDs.count) taken again by the other hosts "
                    + "\(String(format: "%.1f", Self.seconds(reclaimedAfter))) s later (lease 5 s); healed after "
                    + "\(String(format: "%.1f", Self.seconds(healedAfter))) s with \(rerunning) of them still running again, its "
                    + "\(fenced.settlements) late settlements were fenced off and \(fenced.leases) leases found lost; PostgreSQL: "
                    + "\(records.count) rows for \(Set(records.map(\.id)).count) jobs, attempts \(Set(records.map(\.attempt)).sorted()), "
                    + "\(records.filter { $0.state == "succeeded" }.count) succeeded")
        }
    }

    @Test func anAPIHostCutOffRedisAnswers503WithRetryAfterAndNeverHangs() async throws {
        try await HostFleet.with { fleet in
            _ = try await fleet.startWorker(on: 0, io: 4)
            let echo = #"{"kind":"diag.echo","input":{"message":"across hosts"}}"#
            _ = try await fleet.awaitRecorded(try await fleet.submit(1, echo))

            // Whatever the API host sends to Redis's address is dropped from now on; PostgreSQL's address still answers.
            try await fleet.network.cut(fleet.network.api, from: fleet.network.data.address)
            var answers: [(path: String, status: Int, retryAfter: String?, seconds: Double)] = []
            for index in 0..<12 {
                let submission = index % 4 != 3
                let request =
                    submission
                    ? try fleet.harness.request("POST", "/v1/jobs", as: fleet.client, body: echo, base: fleet.apiURL)
                    : HTTPRequest(method: "GET", url: fleet.apiURL + "/readyz")
                let sent = ContinuousClock.now
                // A hang would run into this limit and fail the test.
                let response = try await fleet.harness.http.execute(request, timeout: .seconds(30))
                answers.append(
                    (
                        submission ? "POST /v1/jobs" : "GET /readyz", response.status, response.headers["Retry-After"],
                        Self.seconds(ContinuousClock.now - sent)
                    ))
            }
            #expect(answers.allSatisfy { $0.status == 503 && $0.retryAfter != nil }, "\(answers)")

            try await fleet.network.reconnect(fleet.network.api, to: fleet.network.data.address)
            let accepted =
                try await Eventually.value(every: .milliseconds(200)) { () async -> [String]? in
                    guard let ids = try? await fleet.submit(1, echo), !ids.isEmpty else { return nil }
                    return ids
                } ?? []
            let records = try await fleet.awaitRecorded(accepted)
            #expect(records.map(\.state) == ["succeeded"])
            print(
                "across hosts: API host cut off Redis: \(answers.count) requests, "
                    + "\(answers.filter { $0.status == 503 && $0.retryAfter != nil }.count) answered 503 with Retry-After "
                    + "(statuses \(answers.map(\.status)), Retry-After \(Set(answers.compactMap(\.retryAfter)).sorted())), "
                    + "slowest in \(String(format: "%.1f", answers.map(\.seconds).max() ?? 0)) s, first in "
                    + "\(String(format: "%.1f", answers.first?.seconds ?? 0)) s; reconnected, a job ran and was recorded")
        }
    }

    @Test func workersBehindASlowLossyLinkToRedisStillRunEveryJobOnce() async throws {
        try await HostFleet.with { fleet in
            // On the router, between the worker hosts and Redis: 25-50 ms each way (a round trip 50-100 ms longer), and a
            // connection cut every second.
            let proxy = try TCPRelay(
                in: fleet.network.router, address: "0.0.0.0", port: 6379, to: fleet.network.router, fleet.network.data.address, 6379,
                impairment: TCPRelay.Impairment(delay: .milliseconds(25) ... .milliseconds(50), cutEvery: .seconds(1)))
            defer { proxy.stop() }
            var workers: [WorkerProcess] = []
            for (index, host) in fleet.network.workers.enumerated() {
                workers.append(try await fleet.startWorker(on: index, io: Self.slotsPerWorker, redisURL: "redis://\(host.gateway):6379"))
            }
            let records = try await Self.round(fleet, workers: workers)
            let instant = try await Self.round(fleet, workers: workers, jobs: Self.instantJobsPerRound, of: Self.instantJob)
            let (connections, cut) = proxy.counts
            // A worker whose renewals failed past the lease finds the lease lost; one whose claim's answer was cut off
            // never learns of the jobs it took, and they come back at attempt 2 without a word from it.
            let leasesLost = workers.map { Self.jobCount(in: $0.logText, saying: "leases lost") }.reduce(0, +)
            #expect(cut > 0)
            print(
                "across hosts: 3 worker hosts, Redis 50-100 ms further away and a connection cut every second: "
                    + "\(records.count) jobs of 1 s recorded, \(records.filter { $0.state == "succeeded" }.count) succeeded, attempts "
                    + "\(Self.attempts(records)), \(String(format: "%.1f", HostFleet.throughput(records))) jobs/s; \(instant.count) instant jobs "
                    + "recorded, \(instant.filter { $0.state == "succeeded" }.count) succeeded, attempts \(Self.attempts(instant)), "
                    + "\(String(format: "%.1f", HostFleet.throughput(instant))) jobs/s; the proxy relayed \(connections) connections and cut \(cut); "
                    + "the workers found \(leasesLost) leases lost")
        }
    }

    /// Submits a round of jobs while `workers` are stopped (so that submitting does not pace them), lets them go, and
    /// checks that PostgreSQL recorded each job once, succeeded; returns the records.
    private static func round(
        _ fleet: HostFleet, workers: [WorkerProcess], jobs: Int = jobsPerRound, of body: String = secondLongJob
    ) async throws
        -> [HostFleet.Record]
    {
        for worker in workers { worker.kill(SIGSTOP) }
        let ids = try await fleet.submit(jobs, body)
        for worker in workers { worker.kill(SIGCONT) }
        let records = try await fleet.awaitRecorded(ids)
        #expect(records.count == ids.count)
        #expect(Set(records.map(\.id)) == Set(ids))
        #expect(records.allSatisfy { $0.state == "succeeded" })
        #expect(workers.allSatisfy { $0.isRunning })
        return records
    }

    /// How many jobs were recorded at each attempt, `[attempt: jobs]`.
    private static func attempts(_ records: [HostFleet.Record]) -> String {
        "\(Dictionary(grouping: records, by: \.attempt).mapValues(\.count).sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" })"
    }

    /// The jobs the log's lines saying `message` count, in their `job.count` fields.
    private static func jobCount(in log: String, saying message: String) -> Int {
        log.split(separator: "\n").filter { $0.contains(message) }.compactMap { line in
            line.firstRange(of: "job.count=").flatMap { Int(line[$0.upperBound...].prefix { $0.isNumber }) }
        }.reduce(0, +)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
