import Foundation
import HTTPTypes
import IdentityFixtures
import KilnAPI
import KilnCore
import KilnIdentity
import KilnJSON
import KilnPolicy
import Testing

/// `openapi.json` held to the answers the routes really write, over the in-memory fakes: every JSON answer the
/// document describes is produced by its route, with representative values, and must match the schema of its route
/// and status — required members present, types and enums as declared, nothing a closed schema does not name — and
/// every answer produced, problems included, must have a status its route documents.
@Suite struct OpenAPIConformanceTests {
    /// One answer of one route, named as the document names it.
    struct Sample {
        let method: String
        let path: String
        let answer: RouterDriver.Answer

        var testDescription: String { "\(method.uppercased()) \(path) \(answer.status.code)" }
    }

    static let document: JSONValue = {
        // The document is a resource of KilnAPI; a test that cannot read it fails on `#require` below.
        (try? OpenAPIDocument.bytes()).flatMap { JSONValue.parse(String(decoding: $0, as: UTF8.self)) } ?? .null
    }()

    @Test func everyJSONAnswerTheDocumentDescribesIsProducedAndMatchesItsSchema() async throws {
        let document = Self.document
        try #require(document != .null, "openapi.json is readable JSON")
        let samples = try await Self.samples()
        let conformance = SchemaConformance(document: document)
        var described: Set<String> = []
        for (path, operations) in try #require(Self.objectMembers(document["paths"])) {
            for (method, operation) in Self.objectMembers(operations) ?? [] {
                for (status, response) in Self.objectMembers(operation["responses"]) ?? [] {
                    if conformance.resolved(response)["content"]?["application/json"] != nil { described.insert("\(method) \(path) \(status)") }
                }
            }
        }
        let produced = Set(samples.filter { $0.answer.headers[.contentType] == "application/json" }.map(\.testDescription).map(Self.key))
        #expect(described.subtracting(produced).sorted() == [], "documented JSON answers no test produces")

        for sample in samples {
            guard let response = document["paths"]?[sample.path]?[sample.method]?["responses"]?[String(sample.answer.status.code)] else {
                Issue.record("\(sample.testDescription): the document does not describe this status of this route")
                continue
            }
            let contentType = try #require(sample.answer.headers[.contentType])
            guard let schema = conformance.resolved(response)["content"]?[contentType]?["schema"] else {
                Issue.record("\(sample.testDescription): the document describes no \(contentType) answer")
                continue
            }
            let body = try #require(JSONValue.parse(sample.answer.body), "\(sample.testDescription) is not JSON")
            #expect(conformance.departures(of: body, from: schema) == [], "\(sample.testDescription)")
        }
    }

    @Test func theSchemaCheckFindsAnAnswerThatDepartsFromItsSchema() throws {
        let conformance = SchemaConformance(document: Self.document)
        let job = try #require(JSONValue.parse(#"{"id":"not-a-uuid","kind":"diag.echo","status":"waiting","extra":1}"#))
        let departures = conformance.departures(of: job, from: .object(["$ref": "#/components/schemas/Job"]))
        #expect(departures.contains("$.id is not a uuid: not-a-uuid"))
        #expect(departures.contains(#"$.status is "waiting", not one of ["queued","running","retrying","succeeded","failed","cancelled","dead"]"#))
        #expect(departures.contains("$.extra is not in the schema"))
        #expect(departures.contains("$.max_attempts is missing"))
    }

    /// `GET /v1/jobs/{id} 200` as the set of described answers spells it.
    private static func key(_ description: String) -> String {
        let parts = description.split(separator: " ")
        return "\(parts[0].lowercased()) \(parts[1]) \(parts[2])"
    }

    private static func objectMembers(_ value: JSONValue?) -> [(String, JSONValue)]? {
        guard case .object(let members)? = value else { return nil }
        return members.sorted { $0.key < $1.key }
    }

    /// One answer of each route and status the apps rely on, from a metered tenant (partners, quota, webhooks) and an
    /// unmetered one (operations, a queue that does not answer).
    static func samples() async throws -> [Sample] {
        var samples: [Sample] = []
        var test = try WebhookRoutesTests.api()
        let apple = try TestCertificateAuthority(name: "Apple")
        test.appStore = AppStoreVerifier(rootCertificates: [apple.root], bundleID: "com.example.store", environment: .production)
        test.shares = try ShareRoutesTests.shares()
        test.eraser = MemoryEraser([try #require(Identity(validating: "carol")): .init(jobs: [JobID()], running: [JobID()], uploads: 1)])
        test.configuration.maxUploadBytes = 64
        let api = try test.driver()
        func send(
            _ method: HTTPRequest.Method, _ template: String, _ path: String? = nil, headers: HTTPFields = TestAPI.headers(), body: String = ""
        ) async throws -> RouterDriver.Answer {
            let answer = try await api.send(method, path ?? template, headers: headers, body: body)
            samples.append(Sample(method: method.rawValue.lowercased(), path: template, answer: answer))
            return answer
        }
        let echo = JobRoutesTests.echo

        // Jobs.
        let created = try await send(.post, "/v1/jobs", body: echo)
        let location = try #require(created.headers[.location])
        _ = try await send(.get, "/v1/jobs/{id}", location)
        _ = try await send(.post, "/v1/jobs/{id}/cancel", location + "/cancel")
        _ = try await send(.post, "/v1/jobs/{id}/cancel", location + "/cancel")
        _ = try await send(.get, "/v1/jobs/{id}", "/v1/jobs/\(JobID())")
        _ = try await send(.get, "/v1/jobs/{id}/artifacts/{name}", location + "/artifacts/none.txt")
        _ = try await send(.post, "/v1/jobs", body: #"{"kind":"diag.echo"}"#)
        _ = try await send(.post, "/v1/jobs", body: #"{"kind":"nope","input":{}}"#)
        _ = try await send(.post, "/v1/jobs", body: #"{"kind":"diag.sleep","input":{"seconds":1}}"#)
        _ = try await send(.post, "/v1/jobs", headers: TestAPI.headers(tier: "gold"), body: echo)
        _ = try await send(.post, "/v1/jobs", body: echo)
        _ = try await send(.post, "/v1/jobs", body: echo)
        var keyed = TestAPI.headers()
        keyed[.idempotencyKey] = "k-1"
        _ = try await send(.post, "/v1/jobs", headers: keyed, body: echo)
        _ = try await send(.post, "/v1/jobs", headers: keyed, body: #"{"kind":"diag.echo","input":{"message":"other"}}"#)
        _ = try await send(.post, "/v1/jobs", headers: [.authorization: "Bearer nobody's"], body: echo)

        // Uploads and quota.
        var upload = TestAPI.headers()
        upload[.contentType] = "image/png"
        _ = try await send(.post, "/v1/uploads", headers: upload, body: "png")
        _ = try await send(.post, "/v1/uploads", headers: upload, body: String(repeating: "p", count: 65))
        _ = try await send(.get, "/v1/quota")

        // Partners.
        let invited = try await send(.post, "/v1/partners/invitations", headers: TestAPI.headers("alice"))
        let code = try #require(JSONValue.parse(invited.body)?["code"]?.stringValue)
        let redeem = "/v1/partners/invitations/{code}/redeem"
        let accept = "/v1/partners/invitations/{code}/accept"
        _ = try await send(.post, redeem, "/v1/partners/invitations/nothing/redeem", headers: TestAPI.headers("bob"))
        _ = try await send(.post, redeem, "/v1/partners/invitations/\(code)/redeem", headers: TestAPI.headers("bob"))
        _ = try await send(.post, accept, "/v1/partners/invitations/\(code)/accept", headers: TestAPI.headers("alice"))
        _ = try await send(.get, "/v1/partners", headers: TestAPI.headers("alice"))
        _ = try await send(.delete, "/v1/partners", headers: TestAPI.headers("alice"))
        _ = try await send(.delete, "/v1/partners", headers: TestAPI.headers("alice"))
        let again = try await api.send(.post, "/v1/partners/invitations", headers: TestAPI.headers("alice"))
        let second = try #require(JSONValue.parse(again.body)?["code"]?.stringValue)
        _ = try await api.send(.post, "/v1/partners/invitations/\(second)/redeem", headers: TestAPI.headers("bob"))
        _ = try await send(.post, accept, "/v1/partners/invitations/\(second)/accept", headers: TestAPI.headers("alice"))

        // Identity, shares, webhooks.
        _ = try await send(.delete, "/v1/identity", headers: TestAPI.headers("carol"))
        _ = try await send(.delete, "/v1/identity", headers: TestAPI.headers("carol"))
        _ = try await send(.delete, "/v1/shares/{slug}", "/v1/shares/unknown")
        let revenueCat = "/v1/webhooks/revenuecat/{tenant}"
        _ = try await send(
            .post, revenueCat, "/v1/webhooks/revenuecat/acme", headers: WebhookRoutesTests.headers(), body: WebhookRoutesTests.revenueCat())
        _ = try await send(
            .post, revenueCat, "/v1/webhooks/revenuecat/acme", headers: WebhookRoutesTests.headers(), body: WebhookRoutesTests.revenueCat())
        _ = try await send(.post, revenueCat, "/v1/webhooks/revenuecat/acme", headers: WebhookRoutesTests.headers("wrong"), body: "{}")
        _ = try await send(.post, revenueCat, "/v1/webhooks/revenuecat/nobody", headers: WebhookRoutesTests.headers(), body: "{}")
        _ = try await send(
            .post, "/v1/webhooks/adapty/{tenant}", "/v1/webhooks/adapty/acme", headers: WebhookRoutesTests.headers(),
            body: #"{"event_type":"profile_updated","event_datetime":"2026-09-21T14:13:20+0000","profile_id":"p-1"}"#)
        _ = try await send(.post, "/v1/webhooks/adapty/{tenant}", "/v1/webhooks/adapty/acme", headers: WebhookRoutesTests.headers(), body: "[]")
        let notification = try apple.sign([
            "notificationType": "TEST", "notificationUUID": "uuid-9", "data": ["bundleId": "com.example.store", "environment": "Production"],
        ])
        _ = try await send(
            .post, "/v1/webhooks/app-store/{tenant}", "/v1/webhooks/app-store/acme", headers: [:],
            body: #"{"signedPayload":"\#(notification)"}"#)

        // Campaigns, on an unmetered tenant: one ready to play, and the rest through the routes.
        let plain = TestAPI()
        let ready = try await CampaignRoutesTests.readyCampaign(in: plain.campaigns)
        let campaigns = try plain.driver()
        func sendCampaign(_ method: HTTPRequest.Method, _ template: String, _ path: String? = nil, body: String = "") async throws {
            let answer = try await campaigns.send(method, path ?? template, headers: TestAPI.headers(), body: body)
            samples.append(Sample(method: method.rawValue.lowercased(), path: template, answer: answer))
        }
        try await sendCampaign(.post, "/v1/campaigns", body: CampaignRoutesTests.opening)
        try await sendCampaign(.post, "/v1/campaigns", body: #"{"setting": "s"}"#)
        try await sendCampaign(.get, "/v1/campaigns")
        try await sendCampaign(.get, "/v1/campaigns", "/v1/campaigns?cursor=nonsense")
        try await sendCampaign(.get, "/v1/campaigns/{id}", "/v1/campaigns/\(ready)")
        try await sendCampaign(.get, "/v1/campaigns/{id}", "/v1/campaigns/\(CampaignID())")
        try await sendCampaign(.patch, "/v1/campaigns/{id}", "/v1/campaigns/\(ready)", body: #"{"title": "Bells Beneath"}"#)
        try await sendCampaign(.patch, "/v1/campaigns/{id}", "/v1/campaigns/\(ready)", body: #"{"title": ""}"#)
        try await sendCampaign(.post, "/v1/campaigns/{id}/exports", "/v1/campaigns/\(ready)/exports", body: #"{"format": "pdf"}"#)
        try await sendCampaign(.post, "/v1/campaigns/{id}/turns", "/v1/campaigns/\(ready)/turns", body: #"{"action": "Ring the bell."}"#)
        try await sendCampaign(.post, "/v1/campaigns/{id}/turns", "/v1/campaigns/\(ready)/turns", body: #"{"action": "Run."}"#)
        try await sendCampaign(.post, "/v1/campaigns/{id}/turns", "/v1/campaigns/\(CampaignID())/turns", body: #"{"action": "Run."}"#)

        // Operations, and an outage.
        _ = try await send(.get, "/healthz", headers: [:])
        _ = try await send(.get, "/readyz", headers: [:])
        _ = try await send(.get, "/openapi.json", headers: [:])
        var down = TestAPI()
        down.queue = MemorySubmissionQueue(isDown: true)
        down.health.isDown = true
        let outage = try down.driver()
        for (method, template, path) in [(HTTPRequest.Method.post, "/v1/jobs", "/v1/jobs"), (.get, "/readyz", "/readyz")] {
            let answer = try await outage.send(method, path, headers: TestAPI.headers(), body: echo)
            samples.append(Sample(method: method.rawValue.lowercased(), path: template, answer: answer))
        }
        return samples
    }
}
