import CurlClient
import Foundation
import Glibc
import KilnAPI
import KilnCore
import KilnJSON
import KilnKeys
import KilnProviders
import KilnQueue
import KilnWorker
import Locking
import RedisClient
import Testing

/// Many clients following jobs' event streams on one API node: each follower costs the node memory, not a Redis
/// connection; every follower reads every event once and in order; the node's caps turn the excess away at once; a
/// follower that stops reading is dropped and resumes without loss; a Redis restart loses nothing.
@Suite struct EventFollowerTests {
    @Test func fiveHundredFollowersOfFiftyStreamingJobsReadEveryEventOnceAndInOrder() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            harness.startWorker { $0.concurrency = [.io: 64] }
            let http = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 600))
            defer { http.shutdown() }
            // Thirty steps of progress each, a tenth of a second apart (a worker pressed for time folds some into the
            // next): the followers join while the jobs run, some before their first event and some after, so both the
            // catching up and the shared reads are exercised.
            var jobs: [(id: JobID, identity: String)] = []
            for index in 0..<50 {
                let identity = "reader-\(index)"
                let id = try await harness.submit(
                    #"{"kind":"diag.sleep","input":{"seconds":3,"progress_steps":30}}"#, as: client, identity: identity)
                jobs.append((id, identity))
            }
            let followed = try await withThrowingTaskGroup(of: (JobID, [EventSeen]).self) { group in
                for job in jobs {
                    for _ in 0..<10 {
                        group.addTask {
                            let request = try harness.request("GET", "/v1/jobs/\(job.id)/events", as: client, identity: job.identity)
                            return (job.id, try await Self.follow(request, with: http))
                        }
                    }
                }
                return try await group.reduce(into: [(JobID, [EventSeen])]()) { $0.append($1) }
            }
            #expect(followed.count == 500)
            for (id, seen) in followed {
                let stream = try await harness.redisNamespace.queue.events(of: id, after: nil, limit: 10_000)
                #expect(seen == stream.map(EventSeen.init), "a follower of \(id) read \(seen.count) of its \(stream.count) events")
                let fractions = stream.filter { $0.type == "progress" }.compactMap { JSONValue.parse($0.data)?["fraction"]?.numberValue }
                #expect(fractions.count > 1 && fractions == fractions.sorted() && fractions.last == 1, "\(id)'s progress: \(fractions)")
            }
        }
    }

    @Test func followersCostTheNodeNoRedisConnectionEach() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        try await Harness.with(redisURL: redis.hostURL) { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            // Jobs due in an hour: their streams say `queued` and then nothing for an hour.
            var submitted: [JobID] = []
            for index in 0..<20 {
                submitted.append(
                    try await harness.submit(
                        #"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, as: client, identity: "user-\(index)"))
            }
            let ids = submitted
            let http = try HTTPClient(configuration: HTTPClientConfiguration(maxConnectionsPerHost: 300))
            defer { http.shutdown() }
            let followers = harness.redisNamespace.followers
            let first = Task {
                try await Self.follow(try harness.request("GET", "/v1/jobs/\(ids[0])/events", as: client, identity: "user-0"), with: http)
            }
            try #require(try await Eventually.holds { followers.counts.followers == 1 })
            let probe = RedisPool(configuration: redis.configuration)
            let before = try await Self.connectedClients(probe)
            var rest: [Task<[EventSeen], any Error>] = []
            for index in 1..<200 {
                let request = try harness.request("GET", "/v1/jobs/\(ids[index % 20])/events", as: client, identity: "user-\(index % 20)")
                rest.append(Task { try await Self.follow(request, with: http) })
            }
            try #require(try await Eventually.holds { followers.counts.followers == 200 }, "\(followers.counts) followers")
            #expect(followers.counts.streams == 20)
            let after = try await Self.connectedClients(probe)
            #expect(after - before <= 4, "200 followers took \(after - before) more Redis connections than one did")
            first.cancel()
            for task in rest { task.cancel() }
            try await probe.close()
        }
        try await redis.stop()
    }

    @Test func pastItsCapsAFollowerIsTurnedAwayAtOnceWithRetryAfter() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI {
                $0.followers.perNode = 3
                $0.followers.perIdentity = 2
                // A stream learns that its client left when it next writes: a keep-alive, here every second.
                $0.eventHeartbeat = .seconds(1)
            }
            let later = #"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#
            let mine = try await harness.submit(later, as: client, identity: "user-1")
            let theirs = try await harness.submit(later, as: client, identity: "user-2")
            var open: [HTTPStreamingResponse] = []
            for _ in 0..<2 {
                open.append(try await harness.http.stream(try harness.request("GET", "/v1/jobs/\(mine)/events", as: client), timeout: .seconds(60)))
            }
            #expect(open.allSatisfy { $0.status == 200 })
            let third = try await harness.send(try harness.request("GET", "/v1/jobs/\(mine)/events", as: client))
            #expect(third.status == 429 && third.json?["code"] == "too_many_followers")
            #expect(third.response.headers["Retry-After"] != nil)
            let request = try harness.request("GET", "/v1/jobs/\(theirs)/events", as: client, identity: "user-2")
            open.append(try await harness.http.stream(request, timeout: .seconds(60)))
            #expect(open.last?.status == 200)
            let fourth = try await harness.send(try harness.request("GET", "/v1/jobs/\(theirs)/events", as: client, identity: "user-2"))
            #expect(fourth.status == 503 && fourth.json?["code"] == "too_many_followers")
            #expect(fourth.response.headers["Retry-After"] != nil)
            // A stream whose client leaves gives its place back.
            open.removeAll()
            #expect(
                try await Eventually.holds {
                    let again = try harness.request("GET", "/v1/jobs/\(theirs)/events", as: client, identity: "user-2")
                    return try await harness.http.stream(again, timeout: .seconds(60)).status == 200
                })
        }
    }

    @Test func anIDPastTheStreamsEndIsRefusedAtOnceOnARunningJobAsOnAFinishedOne() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            let queued = try await harness.submit(#"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, as: client)
            harness.startWorker()
            let finished = try await harness.submit(#"{"kind":"diag.echo","input":{"message":"now"}}"#, as: client)
            let tenant = try #require(TenantID(validating: "acme"))
            #expect(try await Eventually.holds { try await harness.redisNamespace.queue.snapshot(finished, tenant: tenant)?.state == .succeeded })
            let anHourAhead = "\(UInt64(Date().timeIntervalSince1970 * 1000) + 3_600_000)-0"
            for id in [queued, finished] {
                let refused = try await harness.send(
                    try harness.request("GET", "/v1/jobs/\(id)/events", as: client, headers: [("Last-Event-ID", anHourAhead)]))
                #expect(refused.status == 400 && refused.json?["code"] == "invalid_last_event_id", "\(id): \(refused.status)")
                // An id the stream did send is taken.
                let first = try #require(try await harness.redisNamespace.queue.events(of: id, after: nil, limit: 1).first)
                let resumed = try await harness.http.stream(
                    try harness.request("GET", "/v1/jobs/\(id)/events", as: client, headers: [("Last-Event-ID", first.id)]), timeout: .seconds(60))
                #expect(resumed.status == 200)
            }
        }
    }

    @Test func aFollowerThatStopsReadingIsDroppedAndResumesWithoutLoss() async throws {
        var configuration = QueueConfiguration()
        configuration.followerQueueLimit = 50
        try await Harness.with(configuration) { harness in
            let client = try await harness.tenant("acme")
            let base = try await harness.startAPI()
            let id = try await harness.submit(#"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, as: client)
            let key = try #require(harness.redisNamespace.shards.keys(of: id)).events(id)
            // A client with a small receive window that reads nothing for now.
            let port = try #require(URL(string: base)?.port)
            let slow = try RawConnection(port: port, receiveBuffer: 4096)
            try slow.send(
                "GET /v1/jobs/\(id)/events HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer \(client.key)\r\nKiln-Identity: user-1\r\n"
                    + "Connection: close\r\n\r\n")
            let followers = harness.redisNamespace.followers
            try #require(try await Eventually.holds { followers.counts.followers == 1 })
            // The test writes the job's stream as its worker would: far more than the sockets hold.
            let padding = String(repeating: "x", count: 4000)
            for index in 1...4000 {
                try await harness.redisNamespace.redis.send(["XADD", key, "*", "type", "progress", "data", #"{"n":\#(index),"pad":"\#(padding)"}"#])
            }
            try await harness.redisNamespace.redis.send(["XADD", key, "*", "type", "status", "data", #"{"state":"succeeded"}"#])
            // Dropped from the node's reader once 50 events waited for it.
            #expect(try await Eventually.holds { followers.counts.followers == 0 })
            var parser = ServerSentEventParser()
            let response = try RawResponse(try await slow.bytesUntilClosed(within: .seconds(120)))
            try #require(response.head.hasPrefix("HTTP/1.1 200"), "\(response.head)")
            let firstPart = parser.parse(response.body).filter { $0.event != nil }
            let lastRead = try #require(firstPart.last?.id)
            #expect(firstPart.last?.event == "progress", "the slow follower was not dropped before the end")
            let rest = try await Self.follow(
                try harness.request("GET", "/v1/jobs/\(id)/events", as: client, headers: [("Last-Event-ID", lastRead)]), with: harness.http)
            let stream = try await harness.redisNamespace.queue.events(of: id, after: nil, limit: 10_000)
            #expect(firstPart.map { EventSeen(id: $0.id, type: $0.event, data: $0.data) } + rest == stream.map(EventSeen.init))
        }
    }

    @Test func aRedisRestartLosesNoEventAFollowerHadNotRead() async throws {
        let redis = try PrivateRedis()
        try await redis.start()
        try await Harness.with(redisURL: redis.hostURL) { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            let id = try await harness.submit(#"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, as: client)
            let key = try #require(harness.redisNamespace.shards.keys(of: id)).events(id)
            let following = Task { try await Self.follow(try harness.request("GET", "/v1/jobs/\(id)/events", as: client), with: harness.http) }
            let followers = harness.redisNamespace.followers
            try #require(try await Eventually.holds { followers.counts.followers == 1 })
            for index in 1...5 {
                try await harness.redisNamespace.redis.send(["XADD", key, "*", "type", "progress", "data", #"{"n":\#(index)}"#])
            }
            try await redis.stop()
            try await redis.start()
            // The node's reader tries again until Redis is back; the follower stays.
            for index in 6...10 {
                _ = try await Eventually.holds {
                    (try? await harness.redisNamespace.redis.send(["XADD", key, "*", "type", "progress", "data", #"{"n":\#(index)}"#])) != nil
                }
            }
            try await harness.redisNamespace.redis.send(["XADD", key, "*", "type", "status", "data", #"{"state":"succeeded"}"#])
            let seen = try await following.value
            let stream = try await harness.redisNamespace.queue.events(of: id, after: nil, limit: 100)
            #expect(seen == stream.map(EventSeen.init))
            #expect(seen.filter { $0.type == "progress" }.count == 10)
        }
        try await redis.stop()
    }

    /// An event as a follower saw it.
    struct EventSeen: Equatable, Sendable {
        let id: String?
        let type: String?
        let data: String

        init(id: String?, type: String?, data: String) {
            self.id = id
            self.type = type
            self.data = data
        }

        init(_ event: JobEvent) {
            self.init(id: event.id, type: event.type, data: event.data)
        }
    }

    /// Reads a job's event stream until it ends (its final status, or the node ends it).
    static func follow(_ request: HTTPRequest, with http: HTTPClient) async throws -> [EventSeen] {
        let seen = Locked<(parser: ServerSentEventParser, events: [EventSeen])>((ServerSentEventParser(), []))
        let head = try await http.stream(request, timeout: .seconds(120)) { _, bytes in
            seen.withLock { seen in
                let events = seen.parser.parse(bytes).filter { $0.event != nil }
                seen.events += events.map { EventSeen(id: $0.id, type: $0.event, data: $0.data) }
                return true
            }
        }
        try #require(head.status == 200, "\(request.url) answered \(head.status)")
        return seen.withLock { $0.events }
    }

    private static func connectedClients(_ probe: RedisPool) async throws -> Int {
        let info = try await probe.send(["INFO", "clients"]).string ?? ""
        let line = info.split(whereSeparator: \.isNewline).first { $0.hasPrefix("connected_clients:") }
        return try #require(line.flatMap { Int($0.dropFirst("connected_clients:".count)) })
    }
}
