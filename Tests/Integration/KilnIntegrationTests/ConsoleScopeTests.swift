import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Testing

/// An operator of some tenants (`kiln operator create … --tenant T`) sees and acts on those tenants' data only, viewers
/// included: another tenant's jobs, dead letters, page, keys, lanes and blocks answer as if they did not exist, and
/// what is every tenant's (a class, the workers, the totals) is not shown.
@Suite struct ConsoleScopeTests {
    @Test func anOperatorOfOneTenantSeesAndActsOnNothingElse() async throws {
        try await Harness.with { harness in
            let (theirs, talevonia) = try await harness.deadJob(tenant: "talevonia")
            let joanie = try await harness.tenant("joanie")
            let others = try await harness.submit(#"{"kind": "diag.fail", "input": {"times": 1, "permanent": true}}"#, as: joanie)
            _ = try await harness.awaitFinished(others, as: joanie)
            let search = JobSearch(pool: harness.database)
            try #require(try await Eventually.holds { try await search.job(others)?.finishedAt != nil })
            let base = try await harness.startConsole()
            let operators = OperatorStore(pool: harness.database)
            let ops = try await ConsoleClient.signedIn(
                harness.http, base: base,
                token: try await operators.create(name: "tv-ops", role: .operator, tenants: [talevonia.tenant.id]).token)
            let viewer = try await ConsoleClient.signedIn(
                harness.http, base: base,
                token: try await operators.create(name: "tv-viewer", role: .viewer, tenants: [talevonia.tenant.id]).token)

            for client in [ops, viewer] {
                let dead = ConsoleClient.text(try await client.get("/console/dead"))
                #expect(dead.contains(theirs.rawValue) && !dead.contains(others.rawValue))
                let jobs = ConsoleClient.text(try await client.get("/console/jobs"))
                #expect(jobs.contains(theirs.rawValue) && !jobs.contains(others.rawValue))
                let tenants = ConsoleClient.text(try await client.get("/console/tenants"))
                #expect(tenants.contains("talevonia") && !tenants.contains("joanie"))
                let overview = ConsoleClient.text(try await client.get("/console"))
                #expect(overview.contains("talevonia") && !overview.contains("joanie") && !overview.contains("Workers alive"))
                for path in [
                    "/console/jobs/\(others)", "/console/jobs?tenant=joanie", "/console/dead?tenant=joanie", "/console/tenants/joanie",
                    "/console/identities?tenant=joanie&identity=user-1", "/console/jobs/\(others)/live",
                ] {
                    #expect(try await client.get(path).status == 404, "\(path)")
                }
                #expect(try await client.get("/console/jobs/\(theirs)").status == 200)
            }

            let csrf = try await ops.csrfToken(on: "/console/dead")
            #expect(try await ops.post("/console/dead/replay", ["csrf": csrf, "id": others.rawValue]).status == 404)
            #expect(try await ops.post("/console/dead/replay-matching", ["csrf": csrf, "tenant": "joanie", "confirm": "yes"]).status == 404)
            #expect(try await harness.isUntouchedDeadLetter(others), "joanie's dead letter is as it died")
            #expect(try await ops.post("/console/lanes/pause", ["csrf": csrf, "class": "io", "confirm": "yes"]).status == 403)
            #expect(try await ops.post("/console/lanes/pause", ["csrf": csrf, "tenant": "joanie"]).status == 404)
            #expect(try await harness.redisNamespace.admin.paused().isEmpty, "nothing was paused")
            #expect(try await ops.post("/console/tenants/joanie/keys", ["csrf": csrf]).status == 404)
            #expect(
                try await ops.post("/console/blocks/block", ["csrf": csrf, "tenant": "joanie", "subject": "user-1", "reason": "r", "hours": "1"])
                    .status == 404)
            #expect(try await harness.redisNamespace.quota.abuseBlocks().isEmpty)

            // Its own tenant: it acts, and its audit log holds its own entries only.
            #expect(try await ops.post("/console/dead/replay", ["csrf": csrf, "id": theirs.rawValue]).status == 303)
            #expect(try await harness.awaitFinished(theirs, as: talevonia)["status"]?.stringValue == "succeeded")
            let audit = ConsoleClient.text(try await ops.get("/console/audit"))
            #expect(audit.contains("dead.replay") && !audit.contains("tv-viewer"))
        }
    }
}
