import Foundation
import HTTPTypes
import KilnAPI
import KilnAssembly
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy
import KilnQueue
import KilnStore
import PostgresClient
import RedisClient
import Testing

/// `/v1/jobs` through the API's router over an in-memory queue and records: what an app gets for a submission, a
/// replay, a bad request, a read and an outage, without Redis or PostgreSQL, in milliseconds.
@Suite struct JobRoutesTests {
    static let key = "kiln_test_key"
    static let headers: HTTPFields = [.authorization: "Bearer \(key)", .init("Kiln-Identity")!: "user-1", .contentType: "application/json"]

    @Test func aSubmissionIsQueuedAndAnsweredWithTheJobAndItsAddress() async throws {
        let queue = MemorySubmissionQueue()
        let api = try Self.api(queue)
        let answer = try await api.send(.post, "/v1/jobs", headers: Self.headers, body: #"{"kind":"diag.echo","input":{"message":"hi"}}"#)
        #expect(answer.status == .accepted)
        let submission = try #require(queue.submissions.first)
        #expect(answer.headers[.location] == "/v1/jobs/\(submission.id)")
        #expect(submission.kind == "diag.echo")
        #expect(submission.identity.rawValue == "user-1")
        #expect(submission.input == #"{"message":"hi"}"#)
        #expect(submission.charge == nil)
        let job = try #require(JSONValue.parse(answer.body))
        #expect(job["id"]?.stringValue == submission.id.rawValue)
        #expect(job["status"]?.stringValue == "queued")
        let read = try await api.send(.get, "/v1/jobs/\(submission.id)", headers: Self.headers)
        #expect(read.status == .ok)
        #expect(JSONValue.parse(read.body)?["kind"]?.stringValue == "diag.echo")
    }

    @Test func theSameIdempotencyKeyAnswersWithTheSameJobOrAConflict() async throws {
        let queue = MemorySubmissionQueue()
        let api = try Self.api(queue)
        var headers = Self.headers
        headers[.init("Idempotency-Key")!] = "order-7"
        let body = #"{"kind":"diag.echo","input":{"message":"hi"}}"#
        let first = try await api.send(.post, "/v1/jobs", headers: headers, body: body)
        let again = try await api.send(.post, "/v1/jobs", headers: headers, body: body)
        #expect(again.status == .accepted)
        #expect(again.headers[.location] == first.headers[.location])
        #expect(queue.submissions.count == 1)
        let other = try await api.send(.post, "/v1/jobs", headers: headers, body: #"{"kind":"diag.echo","input":{"message":"bye"}}"#)
        #expect(other.status == .unprocessableContent)
        #expect(JSONValue.parse(other.body)?["code"]?.stringValue == "idempotency_conflict")
    }

    @Test(arguments: [
        (#"{"kind":"diag.sleep","input":{"seconds":"soon"}}"#, 400, "invalid_input"),
        (#"{"kind":"nope.nothing","input":{}}"#, 400, "unknown_kind"),
        (#"{"kind":"diag.echo"}"#, 400, "invalid_input"),
        ("not json", 400, "malformed_json"),
    ])
    func aBadSubmissionIsRefusedWithItsReasonAndQueuesNothing(body: String, status: Int, code: String) async throws {
        let queue = MemorySubmissionQueue()
        let answer = try await Self.api(queue).send(.post, "/v1/jobs", headers: Self.headers, body: body)
        #expect(answer.status.code == status)
        #expect(answer.headers[.contentType] == "application/problem+json")
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == code)
        #expect(queue.submissions.isEmpty)
    }

    @Test func anUnknownKeyIsRefusedBeforeAnythingElse() async throws {
        var headers = Self.headers
        headers[.authorization] = "Bearer someone_elses"
        let answer = try await Self.api(MemorySubmissionQueue()).send(.post, "/v1/jobs", headers: headers, body: "{}")
        #expect(answer.status == .unauthorized)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "invalid_api_key")
    }

    @Test func anotherIdentitysJobIsNotFound() async throws {
        let queue = MemorySubmissionQueue()
        let api = try Self.api(queue)
        let created = try await api.send(.post, "/v1/jobs", headers: Self.headers, body: #"{"kind":"diag.echo","input":{}}"#)
        var stranger = Self.headers
        stranger[.init("Kiln-Identity")!] = "user-2"
        let read = try await api.send(.get, try #require(created.headers[.location]), headers: stranger)
        #expect(read.status == .notFound)
    }

    @Test func aQueueThatDoesNotAnswerIsA503WithRetryAfter() async throws {
        let answer = try await Self.api(MemorySubmissionQueue(isDown: true))
            .send(.post, "/v1/jobs", headers: Self.headers, body: #"{"kind":"diag.echo","input":{}}"#)
        #expect(answer.status == .serviceUnavailable)
        #expect(answer.headers[.retryAfter] != nil)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "queue_unavailable")
    }

    @Test func theJobAndTheProblemAnAppReadsAreTheOnesTheOpenAPIDocumentDescribes() async throws {
        let document = try #require(JSONValue.parse(String(decoding: try OpenAPIDocument.bytes(), as: UTF8.self)))
        let schemas = try #require(document["components"]?["schemas"])
        let api = try Self.api(MemorySubmissionQueue())
        let created = try await api.send(.post, "/v1/jobs", headers: Self.headers, body: #"{"kind":"diag.echo","input":{}}"#)
        let job = try #require(JSONValue.parse(created.body))
        #expect(SchemaConformance.departures(of: job, from: try #require(schemas["Job"])) == [])
        let read = try await api.send(.get, try #require(created.headers[.location]), headers: Self.headers)
        #expect(SchemaConformance.departures(of: try #require(JSONValue.parse(read.body)), from: try #require(schemas["Job"])) == [])
        let refused = try await api.send(.post, "/v1/jobs", headers: Self.headers, body: #"{"kind":"diag.sleep","input":{}}"#)
        let problem = try #require(JSONValue.parse(refused.body))
        #expect(SchemaConformance.departures(of: problem, from: try #require(schemas["Problem"])) == [])
    }

    /// The API over `queue`, a tenant without a policy (unmetered, identities vouched for by its server) with
    /// diagnostics on, and no finished job or artifact in PostgreSQL. What these routes never touch points at ports
    /// nothing listens on.
    static func api(_ queue: MemorySubmissionQueue) throws -> RouterDriver {
        let tenant = Tenant(
            id: try #require(TenantID(validating: "acme")), name: "Acme", weight: 1, runningCap: 10, diagnostics: true,
            createdAt: Date(timeIntervalSince1970: 1_790_000_000))
        let redis = RedisPool(configuration: try #require(RedisConfiguration(url: "redis://127.0.0.1:1")))
        let database = PostgresPool(configuration: PostgresConfiguration(url: "postgresql://nobody@127.0.0.1:1/none"))
        let objects = ObjectStore(root: FileManager.default.temporaryDirectory.appendingPathComponent("kiln-api-unit"))
        let namespace = try RedisNamespace(redis: redis)
        var dependencies = Assembly(namespace: namespace, database: database, objects: objects).apiDependencies(
            policies: .none, identities: .none, metricsText: { "" })
        dependencies.keys = MemoryTenantKeys(tenants: [key: tenant])
        dependencies.jobs = EmptyRecords()
        dependencies.artifacts = EmptyRecords()
        dependencies.queue = queue
        return RouterDriver(APIServer.router(dependencies: dependencies, configuration: APIConfiguration()))
    }
}
