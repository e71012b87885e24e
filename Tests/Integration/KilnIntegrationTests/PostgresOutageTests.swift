import CurlClient
import Foundation
import KilnAssembly
import KilnCore
import KilnHandlers
import KilnIdentity
import KilnJSON
import KilnPolicy
import KilnStore
import KilnWorker
import PostgresClient
import Testing

/// An API node and a worker whose PostgreSQL (``PrivatePostgres``) stops: intake and events go on over Redis, and the
/// record catches up when PostgreSQL returns.
@Suite struct PostgresOutageTests {
    @Test func intakeGoesOnWhilePostgreSQLIsOutAndTheRecordCatchesUp() async throws {
        let server = try PrivatePostgres()
        try await server.start()
        let database = try server.pool()
        do {
            try await Harness.with { harness in try await Self.run(harness, database: database, server: server) }
        } catch {
            try? await database.close()
            await server.remove()
            throw error
        }
        try await database.close()
        await server.remove()
    }

    private static func run(_ harness: Harness, database: PostgresPool, server: PrivatePostgres) async throws {
        _ = try await Migrator(pool: database, directory: TestServers.repositoryRoot.appendingPathComponent("migrations")).migrate()
        let tenant = try await TenantStore(pool: database).create(
            id: try #require(TenantID(validating: "acme")), name: "acme", weight: 1, runningCap: 100, diagnostics: true)
        let created = try await APIKeyStore(pool: database).create(tenant: tenant.id)
        let client = Harness.Client(tenant: tenant, key: created.key)
        let assembly = Assembly(namespace: harness.redisNamespace, database: database, objects: harness.objects)
        let api = try await harness.startAPI(over: assembly.apiDependencies(policies: .none, identities: .none, metricsText: { "" }))
        var workerConfiguration = WorkerConfiguration()
        workerConfiguration.concurrency = [.io: 8]
        workerConfiguration.renewInterval = .milliseconds(200)
        workerConfiguration.sweepInterval = .milliseconds(300)
        harness.run(assembly.worker(handlers: .diagnostics, configuration: workerConfiguration, logger: harness.logger))
        let body = #"{"kind":"diag.echo","input":{"message":"while postgres is out"}}"#
        let before = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, base: api))
        #expect(before.status == 202)

        try await server.stop()
        // Past the key cache's 2 s: the key must be looked up again, and PostgreSQL does not answer.
        try await Task.sleep(for: .seconds(3))
        var accepted: [JobID] = []
        for _ in 0..<20 {
            let answer = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, base: api))
            #expect(answer.status == 202, "\(String(describing: answer.json))")
            if case .string(let text)? = answer.json?["id"], let id = JobID(validating: text) { accepted.append(id) }
        }
        #expect(accepted.count == 20)
        // Intake needs Redis only, and so does readiness: a load balancer keeps the node in rotation.
        let ready = try await harness.http.execute(HTTPRequest(url: api + "/readyz"), timeout: .seconds(10))
        #expect(ready.status == 200, "/readyz answered \(ready.status) while PostgreSQL was out")
        // Their events come from Redis: each stream ends with the job's last status, which carries its result.
        for id in accepted {
            let events = try await harness.http.execute(
                try harness.request("GET", "/v1/jobs/\(id)/events", as: client, base: api), timeout: .seconds(60))
            let text = String(decoding: events.body, as: UTF8.self)
            #expect(events.status == 200)
            #expect(text.contains(#""state":"succeeded""#) && text.contains("while postgres is out"), "\(text)")
        }

        try await server.start()
        // The workers' sweep writes what they could not record.
        let recorded =
            try await Eventually.value(every: .milliseconds(200)) { () async -> [JobRecord]? in
                guard let records = try? await Self.recorded(accepted, tenant: tenant.id, database: database), records.count == accepted.count
                else { return nil }
                return records
            } ?? []
        #expect(recorded.count == accepted.count)
        #expect(recorded.allSatisfy { $0.state == .succeeded })

        // A key revoked once PostgreSQL answers stops working within seconds.
        _ = try await APIKeyStore(pool: database).revoke(created.record.id.uuidString)
        #expect(
            try await Eventually.holds(within: .seconds(30), every: .milliseconds(200)) {
                try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, base: api)).status == 401
            })
    }

    private static func recorded(_ ids: [JobID], tenant: TenantID, database: PostgresPool) async throws -> [JobRecord] {
        var records: [JobRecord] = []
        for id in ids {
            if let record = try await JobStore(pool: database).find(id: id, tenant: tenant) { records.append(record) }
        }
        return records
    }
}
