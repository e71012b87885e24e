import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnStore
import Testing

/// Acting on every dead letter a filter matches, past the hundred a selection holds: a confirmation that states the
/// count first, then the work in batches in the background, audited when it starts and with the count when it ends.
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
}
