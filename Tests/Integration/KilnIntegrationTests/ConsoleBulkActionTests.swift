import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Testing

/// Acting on everything a filter matches — dead letters replayed, jobs that have not ended cancelled, a tenant's queue of
/// one class cleared — past the hundred a selection holds: a confirmation that states the count first, then the work in
/// batches in the background, audited when it starts and with the count when it ends.
@Suite struct ConsoleBulkActionTests {
    @Test func everyDeadLetterAFilterMatchesIsReplayedAfterAConfirmationThatCountsThem() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            harness.startWorker()
            _ = try await harness.startAPI()
            var ids: [JobID] = []
            for _ in 0..<130 {
                ids.append(try await harness.submit(#"{"kind": "diag.fail", "input": {"times": 1, "permanent": true}}"#, as: client))
            }
            let search = JobSearch(pool: harness.database)
            try #require(
                try await Eventually.holds(every: .milliseconds(200)) { try await search.deadLetterCount(tenant: client.tenant.id, kind: nil) == 130 }
            )
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let csrf = try await ops.csrfToken(on: "/console/dead?tenant=acme")

            let asked = try await ops.post("/console/dead/replay-matching", ["csrf": csrf, "tenant": "acme", "kind": ""])
            #expect(asked.status == 200)
            #expect(ConsoleClient.text(asked).contains("Replay all 130 dead letter(s) matching tenant acme, kind any?"))
            #expect(try await search.deadLetterCount(tenant: client.tenant.id, kind: nil) == 130, "asking replayed nothing")

            let viewer = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("eve", role: .viewer))
            let refused = try await viewer.post(
                "/console/dead/replay-matching", ["csrf": try await viewer.csrfToken(on: "/console/dead"), "tenant": "acme", "confirm": "yes"])
            #expect(refused.status == 403)

            let confirmed = try await ops.post("/console/dead/replay-matching", ["csrf": csrf, "tenant": "acme", "kind": "", "confirm": "yes"])
            #expect(confirmed.status == 303)
            #expect(
                try await Eventually.holds(every: .milliseconds(200)) {
                    try await harness.consoleAuditOutcomes("dead.replay-matching").contains("finished: replayed 130 of 130")
                })
            #expect(try await harness.consoleAuditOutcomes("dead.replay-matching").first?.hasPrefix("started: replay 130") == true)
            // A replay runs with fresh attempts, and this job fails on its first attempt only.
            for id in ids { #expect(try await harness.awaitFinished(id, as: client)["status"]?.stringValue == "succeeded", "\(id)") }
        }
    }

    /// A paused tenant's queue of 1,200 jobs, half of each class, with a few more of one class delayed: clearing that
    /// class cancels each of its jobs, across more than one batch, and leaves the other class's queued.
    @Test func clearingATenantsQueueOfOneClassCancelsEachOfItsJobsAndNoOther() async throws {
        try await Harness.with { harness in
            let acme = try await harness.tenant("acme")
            _ = try await harness.tenant("joanie")
            #expect(try await harness.redisNamespace.admin.pause(.tenant(acme.tenant.id)))
            var byClass: [JobClass: [JobID]] = [:]
            for index in 0..<1_205 {
                let jobClass: JobClass = index < 1_200 && index % 2 == 0 ? .io : .cpu
                byClass[jobClass, default: []].append(
                    try await harness.enqueueEcho(
                        tenant: acme.tenant.id, identity: "user-\(index % 40)", jobClass: jobClass,
                        delay: index < 1_200 ? .zero : .seconds(3_600)))
            }
            let io = try #require(byClass[.io])
            let cpu = try #require(byClass[.cpu])
            let jobs = harness.redisNamespace.liveJobs
            #expect(try await jobs.readyCounts(tenant: acme.tenant.id) == [.io: 600, .cpu: 600])

            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let page = ConsoleClient.text(try await ops.get("/console/tenants/acme"))
            #expect(page.contains(#"id="clear-cpu""#) && page.contains(#">600</td>"#))
            let csrf = try #require(ConsoleClient.csrfToken(in: page))

            let asked = try await ops.post("/console/tenants/acme/clear", ["csrf": csrf, "class": "cpu"])
            #expect(asked.status == 200)
            #expect(
                ConsoleClient.text(asked).contains(
                    "Cancel 605 queued cpu job(s) of acme: 600 in its ready lists and 5 held back by a cap or delayed?"))
            #expect(try await harness.redisNamespace.liveJobs.readyCounts(tenant: acme.tenant.id)[.cpu] == 600, "asking cancelled nothing")
            #expect(try await ops.post("/console/tenants/acme/clear", ["csrf": csrf, "class": "gpu"]).status == 400)

            let viewer = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("eve", role: .viewer))
            let viewersPage = ConsoleClient.text(try await viewer.get("/console/tenants/acme"))
            #expect(!viewersPage.contains(#"id="clear-cpu""#), "a viewer is offered no clearing")
            let viewerCSRF = try #require(ConsoleClient.csrfToken(in: viewersPage))
            #expect(try await viewer.post("/console/tenants/acme/clear", ["csrf": viewerCSRF, "class": "cpu", "confirm": "yes"]).status == 403)
            let joanies = try await ConsoleClient.signedIn(
                harness.http, base: base,
                token: try await harness.operatorToken("joanie-ops", role: .operator, tenants: [try #require(TenantID(validating: "joanie"))]))
            let joaniesCSRF = try await joanies.csrfToken(on: "/console/tenants/joanie")
            #expect(try await joanies.post("/console/tenants/acme/clear", ["csrf": joaniesCSRF, "class": "cpu", "confirm": "yes"]).status == 404)
            #expect(try await jobs.readyCounts(tenant: acme.tenant.id)[.cpu] == 600, "the refused posts cancelled nothing")

            let confirmed = try await ops.post("/console/tenants/acme/clear", ["csrf": csrf, "class": "cpu", "confirm": "yes"])
            #expect(confirmed.status == 303)
            #expect(
                try await Eventually.holds(every: .milliseconds(200)) {
                    try await harness.consoleAuditOutcomes("tenant.clear-queued").contains("finished: cancelled 605")
                })
            #expect(try await harness.consoleAuditOutcomes("tenant.clear-queued").first?.hasPrefix("started: cancel 605") == true)
            #expect(try await Self.states(of: cpu, on: harness) == [.cancelled: 605])
            #expect(try await Self.states(of: io, on: harness) == [.queued: 600])
            #expect(try await jobs.readyCounts(tenant: acme.tenant.id) == [.io: 600, .cpu: 0])
        }
    }

    /// An identity's jobs cancelled from the job search, the running one among them told to stop; another identity's
    /// stay queued, and the search must say whose work it cancels.
    @Test func cancellingEveryMatchOfASearchCancelsThatIdentitysJobsOnly() async throws {
        try await Harness.with { harness in
            let acme = try await harness.tenant("acme")
            _ = try await harness.tenant("joanie")
            harness.startWorker()
            _ = try await harness.startAPI()
            let sleeper = try await harness.submit(#"{"kind": "diag.sleep", "input": {"seconds": 240}}"#, as: acme, identity: "night-owl")
            _ = try await harness.awaitRunning(sleeper, acme.tenant.id)
            // The rest wait: the worker claims none of them.
            #expect(try await harness.redisNamespace.admin.pause(.tenant(acme.tenant.id)))
            var owls: [JobID] = []
            var birds: [JobID] = []
            for index in 0..<900 {
                let owl = index % 3 != 0
                let id = try await harness.enqueueEcho(
                    tenant: acme.tenant.id, identity: owl ? "night-owl" : "early-bird", jobClass: index % 2 == 0 ? .io : .cpu)
                if owl { owls.append(id) } else { birds.append(id) }
            }

            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let search = ConsoleClient.text(try await ops.get("/console/jobs?tenant=acme&identity=night-owl"))
            #expect(search.contains(#"id="cancel-matching""#))
            let csrf = try #require(ConsoleClient.csrfToken(in: search))
            let filter: KeyValuePairs<String, String> = ["csrf": csrf, "tenant": "acme", "identity": "night-owl", "kind": "", "state": ""]

            let asked = try await ops.post("/console/jobs/cancel-matching", filter)
            #expect(asked.status == 200)
            #expect(
                ConsoleClient.text(asked).contains(
                    "Cancel all 601 job(s) that have not ended matching tenant acme, identity night-owl, kind any, state any?"))
            #expect(try await Self.states(of: owls, on: harness) == [.queued: 600], "asking cancelled nothing")
            #expect(try await ops.post("/console/jobs/cancel-matching", ["csrf": csrf, "state": "queued"]).status == 400, "no one's work")
            #expect(try await ops.post("/console/jobs/cancel-matching", ["csrf": csrf, "tenant": "acme", "state": "cancelled"]).status == 400)

            let viewer = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("eve", role: .viewer))
            let viewersSearch = ConsoleClient.text(try await viewer.get("/console/jobs?tenant=acme&identity=night-owl"))
            #expect(!viewersSearch.contains(#"id="cancel-matching""#), "a viewer is offered no cancelling")
            let viewerCSRF = try #require(ConsoleClient.csrfToken(in: viewersSearch))
            #expect(
                try await viewer.post(
                    "/console/jobs/cancel-matching", ["csrf": viewerCSRF, "tenant": "acme", "identity": "night-owl", "confirm": "yes"]
                ).status == 403)
            let joanies = try await ConsoleClient.signedIn(
                harness.http, base: base,
                token: try await harness.operatorToken("joanie-ops", role: .operator, tenants: [try #require(TenantID(validating: "joanie"))]))
            let joaniesCSRF = try await joanies.csrfToken(on: "/console/jobs")
            #expect(
                try await joanies.post(
                    "/console/jobs/cancel-matching", ["csrf": joaniesCSRF, "tenant": "acme", "identity": "night-owl", "confirm": "yes"]
                ).status == 404)
            // Narrowed to its own tenant, where night-owl has no job.
            #expect(
                try await joanies.post("/console/jobs/cancel-matching", ["csrf": joaniesCSRF, "identity": "night-owl", "confirm": "yes"]).status
                    == 409)
            #expect(try await Self.states(of: owls, on: harness) == [.queued: 600], "the refused posts cancelled nothing")

            let confirmed = try await ops.post(
                "/console/jobs/cancel-matching", ["csrf": csrf, "tenant": "acme", "identity": "night-owl", "kind": "", "state": "", "confirm": "yes"])
            #expect(confirmed.status == 303)
            #expect(
                try await Eventually.holds(every: .milliseconds(200)) {
                    try await harness.consoleAuditOutcomes("jobs.cancel-matching").contains("finished: cancelled 600; told 1 running to stop")
                })
            #expect(try await harness.consoleAuditOutcomes("jobs.cancel-matching").first?.hasPrefix("started: cancel 601") == true)
            #expect(try await harness.awaitFinished(sleeper, as: acme, identity: "night-owl")["status"]?.stringValue == "cancelled")
            #expect(try await Self.states(of: owls, on: harness) == [.cancelled: 600])
            #expect(try await Self.states(of: birds, on: harness) == [.queued: 300])
        }
    }

    /// How many of `ids` are in each state: as Redis holds them, or as recorded once Redis no longer does.
    static func states(of ids: [JobID], on harness: Harness) async throws -> [JobState: Int] {
        let search = JobSearch(pool: harness.database)
        var states: [JobState: Int] = [:]
        for (id, live) in zip(ids, try await harness.queue.snapshots(ids)) {
            let recorded = live == nil ? try await search.job(id)?.state : nil
            guard let state = live?.state ?? recorded else { throw TestFailure("job \(id) is gone") }
            states[state, default: 0] += 1
        }
        return states
    }
}
