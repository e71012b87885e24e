import CurlClient
import Foundation
import HTTPTypes
import Hummingbird
import KilnAPI
import KilnCore
import KilnJSON
import KilnStore
import KilnQueue
import PostgresClient
import RedisClient
import S3Client
import Testing

/// The HTTP API on a live socket, with in-process workers, against the real servers.
@Suite struct APITests {
    @Test func aSubmittedJobRunsAndItsResultIsRecorded() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            harness.startWorker()
            let id = try await harness.submit(#"{"kind":"diag.echo","input":{"message":"hi"}}"#, as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["status"]?.stringValue == "succeeded")
            #expect(job["result"]?["echo"]?["message"]?.stringValue == "hi")
            // PostgreSQL gets the record once the worker has settled the job.
            let record = try await Eventually.value { try await JobStore(pool: harness.database).find(id: id, tenant: client.tenant.id) }
            #expect(record?.state == .succeeded)
            #expect(record?.result?.contains("hi") == true)
        }
    }

    /// A worker claims every kind of its classes, so a kind without a handler on it is one no worker of this build
    /// serves: the job fails for good, once, saying so, instead of coming back every few seconds for ever.
    @Test func aJobOfAKindNoWorkerServesFailsForGood() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            // The diagnostic handlers only: diag.generate is in the API's catalog but not on this worker.
            harness.startWorker()
            let id = try await harness.submit(#"{"kind":"diag.generate","input":{"prompt":"hi"}}"#, as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["status"]?.stringValue == "failed")
            #expect(job["error"]?["code"]?.stringValue == "unknown_kind")
            #expect(job["attempt"]?.numberValue == 1)
        }
    }

    @Test func everyBadInputGetsItsOwn4xx() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let other = try await harness.tenant("rival")
            try await harness.startAPI { $0.maxJobBodyBytes = 1024 }
            let cases: [(body: String?, headers: [(String, String)], status: Int, code: String)] = [
                ("{not json", [], 400, "malformed_json"),
                (#"{"kind":"nope.nothing","input":{}}"#, [], 400, "unknown_kind"),
                (#"{"kind":"diag.sleep","input":{"seconds":"ten"}}"#, [], 400, "invalid_input"),
                (#"{"kind":"diag.echo","input":{},"priority":"urgent"}"#, [], 400, "invalid_input"),
                (#"{"kind":"diag.echo","input":{"message":"\#(String(repeating: "x", count: 2000))"}}"#, [], 413, "body_too_large"),
            ]
            for bad in cases {
                let (status, json, response) = try await harness.send(
                    try harness.request("POST", "/v1/jobs", as: client, body: bad.body, headers: bad.headers))
                #expect(status == bad.status, "\(bad.code)")
                #expect(json?["code"]?.stringValue == bad.code)
                #expect(response.header("Content-Type") == "application/problem+json")
            }
            let field = try await harness.send(
                try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.sleep","input":{"seconds":"ten"}}"#))
            #expect(field.json?["field"]?.stringValue == "input.seconds")
            // Valid JSON that PostgreSQL cannot store: accepted, the job could never have been recorded.
            let nul = try await harness.send(
                try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"notes":["a","b\u0000"]}}"#))
            #expect(nul.status == 400)
            #expect(nul.json?["field"]?.stringValue == "input.notes[1]")

            var noKey = try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{}}"#)
            noKey.headers = ["Kiln-Identity": "user-1"]
            #expect(try await harness.send(noKey).json?["code"]?.stringValue == "missing_api_key")

            let revoked = try await harness.tenant("gone")
            _ = try await APIKeyStore(pool: harness.database).revoke(String(revoked.key.prefix(13)))
            let afterRevoke = try await harness.send(try harness.request("POST", "/v1/jobs", as: revoked, body: #"{"kind":"diag.echo","input":{}}"#))
            #expect(afterRevoke.status == 401)

            let id = try await harness.submit(#"{"kind":"diag.echo","input":{}}"#, as: client)
            let stranger = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)", as: other))
            #expect(stranger.status == 404)
            let otherUser = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)", as: client, identity: "user-2"))
            #expect(otherUser.status == 404)
            let conflict = try await harness.send(
                try harness.request(
                    "POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"a":1}}"#, headers: [("Idempotency-Key", "k1")]))
            #expect(conflict.status == 202)
            let reused = try await harness.send(
                try harness.request(
                    "POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"a":2}}"#, headers: [("Idempotency-Key", "k1")]))
            #expect(reused.status == 422)
            #expect(reused.json?["code"]?.stringValue == "idempotency_conflict")
            // Keys belong to one end user: another identity's same key makes a job of its own.
            let otherIdentity = try await harness.send(
                try harness.request(
                    "POST", "/v1/jobs", as: client, identity: "user-2", body: #"{"kind":"diag.echo","input":{"a":1}}"#,
                    headers: [("Idempotency-Key", "k1")]))
            #expect(otherIdentity.status == 202)
            #expect(otherIdentity.json?["id"] != conflict.json?["id"])
            let replay = try await harness.send(
                try harness.request(
                    "POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"a":1}}"#, headers: [("Idempotency-Key", "k1")]))
            #expect(replay.status == 202)
            #expect(replay.json?["id"] == conflict.json?["id"])
        }
    }

    @Test func cancellingARunningSleepStopsIt() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            harness.startWorker()
            let id = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":60,"progress_steps":600}}"#, as: client)
            _ = try await harness.awaitRunning(id, client.tenant.id)
            let cancel = try await harness.send(try harness.request("POST", "/v1/jobs/\(id)/cancel", as: client))
            #expect(cancel.status == 202)
            // Well short of the sleep's 60 s, with room for a loaded machine.
            let job = try await harness.awaitFinished(id, as: client, within: .seconds(30))
            #expect(job["status"]?.stringValue == "cancelled")
        }
    }

    @Test func eventsArriveInOrderAndResumeWithoutLossOrDuplication() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            harness.startWorker()
            let id = try await harness.submit(#"{"kind":"diag.sleep","input":{"seconds":0.6,"progress_steps":6}}"#, as: client)
            _ = try await harness.awaitFinished(id, as: client)
            let all = try await Self.events(harness, id, client, after: nil)
            #expect(all.first?.data.contains("queued") == true)
            // The last event says how the job ended and carries its result, so a listener needs no other request.
            let last = try #require(all.last)
            #expect(last.type == "status")
            #expect(JSONValue.parse(last.data)?["state"]?.stringValue == "succeeded")
            #expect(JSONValue.parse(last.data)?["result"]?["slept_seconds"] == .number(0.6))
            #expect(all.filter { $0.type == "progress" }.count == 6)
            let ids = all.map(\.id)
            #expect(ids == ids.sorted { $0.compare($1, options: .numeric) == .orderedAscending })
            let resumed = try await Self.events(harness, id, client, after: all[3].id)
            #expect(resumed.map(\.id) == Array(ids.dropFirst(4)))
            // A reconnect after the final event ends at once instead of waiting for events that will never come.
            #expect(try await Self.events(harness, id, client, after: ids.last).isEmpty)
            // Not a stream id, and the largest one, which Redis refuses to read past.
            for given in ["99999999999999999999-0", "18446744073709551615-18446744073709551615"] {
                let bad = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/events", as: client, headers: [("Last-Event-ID", given)]))
                #expect(bad.status == 400, "\(given)")
            }
        }
    }

    /// What NIO's HTTP parser refuses before any route sees it is answered as every error is: a problem with its
    /// code, `431` for headers over the limits, then the connection is closed. A request before it on the same
    /// connection gets its own answer first.
    @Test func aRequestTheParserRefusesIsAnsweredWithAProblem() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            let port = try #require(URLComponents(string: try harness.apiURL)?.port)
            let manyHeaders = (0..<2_000).map { "X-Filler-\($0): a\r\n" }.joined()
            let cases: [(request: String, status: String, code: String)] = [
                ("GET /healthz HTTP/1.1\r\nHost: kiln\r\nKiln-Identity: a\u{1}b\r\n\r\n", "400", "invalid_header"),
                ("GET /healthz HTTP/1.1\r\nHost: kiln\r\nIdempotency-Key: a\u{7f}b\r\n\r\n", "400", "invalid_header"),
                ("GET /healthz HTTP/1.1\r\nHost: kiln\r\nX-Big: \(String(repeating: "b", count: 81 * 1024))\r\n\r\n", "431", "headers_too_large"),
                ("GET /healthz HTTP/1.1\r\nHost: kiln\r\n\(manyHeaders)\r\n", "431", "headers_too_large"),
                ("GET /healthz HTTP/9.9\r\nHost: kiln\r\n\r\n", "400", "malformed_request"),
            ]
            for (request, status, code) in cases {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let answer = try await connection.readUntilClosed()
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(code): \(answer.prefix(200))")
                #expect(answer.lowercased().contains("content-type: application/problem+json"), "\(code)")
                #expect(answer.contains(#""code":"\#(code)""#), "\(code): \(answer.prefix(300))")
            }
            // Pipelined behind a good request: that one is answered first, then the problem.
            let connection = try RawConnection(port: port)
            try connection.send("GET /healthz HTTP/1.1\r\nHost: kiln\r\n\r\nGET /healthz HTTP/1.1\r\nHost: kiln\r\nKiln-Identity: a\u{1}b\r\n\r\n")
            let answers = try await connection.readUntilClosed()
            #expect(answers.hasPrefix("HTTP/1.1 200"), "\(answers)")
            #expect(answers.contains("HTTP/1.1 400"), "\(answers)")
            #expect(answers.contains(#""code":"invalid_header""#), "\(answers)")
        }
    }

    /// A client that sends half a request, or declares a body larger than the limit and sends less, cannot hold a
    /// connection: the first is closed once it has been idle, the second answered 413 at once.
    @Test func halfARequestDoesNotHoldAConnection() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            // Short, but longer than the 413's authentication takes on a loaded machine: the body is still unread then.
            try await harness.startAPI { $0.idleTimeout = .seconds(15) }
            let port = try #require(URLComponents(string: try harness.apiURL)?.port)

            let silent = try RawConnection(port: port)
            try silent.send("GET /healthz HTTP/1.1\r\nHost: kiln\r\n")
            #expect(try await silent.readUntilClosed().isEmpty)

            let oversized = try RawConnection(port: port)
            try oversized.send(
                "POST /v1/jobs HTTP/1.1\r\nHost: kiln\r\nAuthorization: Bearer \(client.key)\r\nKiln-Identity: user-1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n{}")
            let answer = try await oversized.readUntilClosed()
            #expect(answer.hasPrefix("HTTP/1.1 413"), "\(answer)")
            #expect(answer.contains("body_too_large"))
        }
    }

    /// Every answer is framed, by its length or by closing its connection, and a connection its request does not keep
    /// is closed after the answer (RFC 9112 §9.3): HTTP/1.0 without `keep-alive`, `Connection: close` in any case, and
    /// `CONNECT`, whose answer NIO sends with neither length nor body. The idle timeout is an hour here, so a connection
    /// held open fails the test.
    @Test func everyAnswerIsFramedAndAConnectionNotKeptIsClosedAfterIt() async throws {
        try await Harness.with { harness in
            try await harness.startAPI { $0.idleTimeout = .seconds(3600) }
            let port = try #require(URLComponents(string: try harness.apiURL)?.port)
            let closing: [(request: String, status: String)] = [
                ("CONNECT /v1/jobs HTTP/1.1\r\nHost: kiln\r\n\r\n", "HTTP/1.1 405"),
                ("CONNECT kiln:443 HTTP/1.1\r\nHost: kiln:443\r\n\r\n", "HTTP/1.1 4"),
                ("GET /healthz HTTP/1.0\r\n\r\n", "HTTP/1.0 200"),
                ("TRACE /v1/jobs HTTP/1.0\r\nHost: kiln\r\n\r\n", "HTTP/1.0 405"),
                ("GET /healthz HTTP/1.1\r\nHost: kiln\r\nConnection: Close\r\n\r\n", "HTTP/1.1 200"),
            ]
            for (request, status) in closing {
                let connection = try RawConnection(port: port)
                try connection.send(request)
                let answer = try await connection.readUntilClosed()
                #expect(answer.hasPrefix(status), "\(request): \(answer)")
                #expect(answer.lowercased().contains("\r\nconnection: close\r\n"), "\(request): \(answer)")
            }
            let healthz = try RawConnection(port: port)
            try healthz.send("GET /healthz HTTP/1.0\r\n\r\n")
            let whole = try await healthz.readUntilClosed()
            let body = try #require(whole.components(separatedBy: "\r\n\r\n").last)
            #expect(JSONValue.parse(body)?["version"] != nil, "HTTP/1.0 gets the whole body, unchunked: \(whole)")

            // Answers with their length keep a connection that asks to be kept, HTTP/1.0 with `keep-alive` included,
            // and a method no route takes is answered with its problem: each pipelined request gets its answer, in order.
            let kept = try RawConnection(port: port)
            try kept.send(
                "GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n" + "PROPFIND /v1/jobs HTTP/1.1\r\nHost: kiln\r\n\r\n"
                    + "GET /healthz HTTP/1.1\r\nHost: kiln\r\nConnection: close\r\n\r\n")
            let answers = try await kept.readUntilClosed()
            // Each answer's status line, the first right after the last answer's body.
            let statuses = answers.components(separatedBy: "HTTP/1.").dropFirst().map { "HTTP/1." + $0.components(separatedBy: "\r\n")[0] }
            #expect(statuses == ["HTTP/1.0 200 OK", "HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 200 OK"], "\(answers)")
            #expect(answers.lowercased().contains("\r\nconnection: keep-alive\r\n"), "\(answers)")
            #expect(answers.contains(#""code":"method_not_allowed""#), "\(answers)")
        }
    }

    struct Event {
        let id: String
        let type: String
        let data: String
    }

    static func events(_ harness: Harness, _ id: JobID, _ client: Harness.Client, after: String?, identity: String = "user-1") async throws -> [Event]
    {
        let request = try harness.request(
            "GET", "/v1/jobs/\(id)/events", as: client, identity: identity, headers: after.map { [("Last-Event-ID", $0)] } ?? [])
        let response = try await harness.http.execute(request, timeout: .seconds(10))
        #expect(response.header("Content-Type") == "text/event-stream")
        return String(decoding: response.body, as: UTF8.self).components(separatedBy: "\n\n").compactMap { block in
            var fields: [String: String] = [:]
            for line in block.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { fields[parts[0]] = parts[1] }
            }
            guard let id = fields["id"], let type = fields["event"], let data = fields["data"] else { return nil }
            return Event(id: id, type: type, data: data)
        }
    }

    @Test func redisUnreachableIsA503WithRetryAfter() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            // An API whose queue points at a port where no Redis listens.
            var redis = harness.redis.configuration
            redis.port = 1
            redis.connectTimeout = .milliseconds(200)
            let deadRedis = RedisPool(configuration: redis)
            let dead = try RedisNamespace(redis: deadRedis, configuration: harness.redisNamespace.configuration)
            let api = try await harness.startAPI(over: harness.dependencies(redis: dead))
            let submission = try await harness.send(
                try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{}}"#, base: api))
            Self.expectUnavailable(submission, code: "queue_unavailable")
        }
    }

    /// PostgreSQL out of reach answers as Redis out of reach does, never with a 500: when the API key is looked up,
    /// and when a job that is not in Redis is read from the record.
    @Test func postgresUnreachableIsA503WithRetryAfter() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let deadDatabase = try PostgresPool(configuration: PostgresConfiguration(url: "postgresql://kiln@127.0.0.1:1/kiln"))
            var noKeys = harness.dependencies()
            noKeys.keys = APIKeyStore(pool: deadDatabase)
            var noRecord = harness.dependencies()
            noRecord.jobs = JobStore(pool: deadDatabase)
            let (keyless, recordless) = (try await harness.startAPI(over: noKeys), try await harness.startAPI(over: noRecord))
            let submission = try await harness.send(
                try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{}}"#, base: keyless))
            Self.expectUnavailable(submission, code: "database_unavailable")
            let read = try await harness.send(try harness.request("GET", "/v1/jobs/\(JobID())", as: client, base: recordless))
            Self.expectUnavailable(read, code: "database_unavailable")
            try await deadDatabase.close()
        }
    }

    /// The object store out of reach is a 503 too: an upload whose bytes cannot be stored may be sent again shortly.
    @Test func objectStoreUnreachableIsA503WithRetryAfter() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            // A bucket on a port where no S3 server listens.
            let deadBucket = S3ObjectStore(
                configuration: S3Configuration(endpoint: "http://127.0.0.1:1", bucket: "kiln", accessKey: "key", secretKey: "secret"),
                http: harness.http)
            var dependencies = harness.dependencies()
            dependencies.uploads = UploadStore(pool: harness.database, objects: deadBucket)
            let api = try await harness.startAPI(over: dependencies)
            let upload = try await harness.send(try harness.request("POST", "/v1/uploads", as: client, body: #"{"any":"bytes"}"#, base: api))
            Self.expectUnavailable(upload, code: "storage_unavailable")
        }
    }

    /// A backing service's outage as the client sees it: 503, the problem naming the service, and when to try again.
    static func expectUnavailable(_ answer: (status: Int, json: JSONValue?, response: CurlClient.HTTPResponse), code: String) {
        #expect(answer.status == 503, "\(code)")
        #expect(answer.json?["code"]?.stringValue == code)
        #expect(answer.response.header("Content-Type") == "application/problem+json")
        #expect(answer.response.header("Retry-After") == "2")
    }

    @Test func metricsShowTheQueue() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            _ = try await harness.submit(#"{"kind":"diag.echo","input":{}}"#, as: client)
            _ = try await harness.submit(#"{"kind":"diag.echo","input":{},"delay_seconds":60}"#, as: client)
            let response = try await harness.http.execute(CurlClient.HTTPRequest(url: try harness.apiURL + "/metrics"))
            let text = String(decoding: response.body, as: UTF8.self)
            #expect(response.status == 200)
            #expect(text.contains(#"kiln_queue_ready{tenant="acme",class="io",priority="normal"} 1"#))
            #expect(text.contains("kiln_queue_delayed 1"))
            #expect(text.contains("kiln_queue_oldest_wait_seconds{tenant=\"acme\""))
        }
    }

    @Test func theOpenAPIDocumentListsExactlyTheRoutes() async throws {
        try await Harness.with { harness in
            let router = APIServer.router(dependencies: harness.dependencies(), configuration: APIConfiguration())
            let served = Set(router.routes.map { "\($0.method.rawValue) \($0.path)" })
            let document = try #require(JSONValue.parse(String(decoding: try OpenAPIDocument.bytes(), as: UTF8.self)))
            guard case .object(let paths)? = document["paths"] else { throw TestFailure("no paths") }
            var documented = Set<String>()
            for (path, item) in paths {
                guard case .object(let operations) = item else { continue }
                for method in operations.keys { documented.insert("\(method.uppercased()) \(path)") }
            }
            #expect(served == documented)
        }
    }
}
