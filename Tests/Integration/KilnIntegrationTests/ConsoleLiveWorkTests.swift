import CurlClient
import Foundation
import KilnConsole
import KilnCore
import KilnQueue
import KilnStore
import Testing

/// The console's jobs page lists what Redis holds that has not ended — running, queued, held, waiting — read a page at
/// a time, and one search finds a job by what an operator knows of it whether it has ended or not.
@Suite struct ConsoleLiveWorkTests {
    /// A paused tenant's queue, paged through from the first page to the last: every queued job once, each page no
    /// longer than a page, and the count beside it.
    @Test func aPausedTenantsQueuedJobsArePagedThroughToTheLast() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            #expect(try await harness.redisNamespace.admin.pause(.tenant(client.tenant.id)))
            var queued = Set<String>()
            for index in 0..<1_200 {
                let id = try await harness.enqueueEcho(
                    tenant: client.tenant.id, identity: "user-\(index % 40)", priority: index % 3 == 0 ? .high : .normal)
                queued.insert(id.rawValue)
            }
            let base = try await harness.startConsole { $0.pageSize = 100 }
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .viewer))
            var path: String? = "/console/jobs?tenant=acme&state=queued"
            var seen: [String] = []
            var pages = 0
            while let next = path {
                let page = try await ops.get(next)
                #expect(page.status == 200)
                let text = ConsoleClient.text(page)
                if pages == 0 { #expect(text.contains("queued 1200"), "the count of queued jobs") }
                let ids = text.matches(of: #/title="([0-9a-f-]{36})"/#).map { String($0.output.1) }
                #expect(ids.count <= 100)
                #expect(!text.contains("<h2>Ended</h2>"), "a search for queued jobs lists no ended ones")
                seen += ids
                path = text.firstMatch(of: #/href="(/console/jobs\?[^"]*live=[^"]+)"/#).map {
                    String($0.output.1).replacingOccurrences(of: "&amp;", with: "&")
                }
                pages += 1
                try #require(pages <= 20, "the pages never ended")
            }
            #expect(seen.count == queued.count)
            #expect(Set(seen) == queued)
            // A cursor no list reaches is refused before any read, whose end (offset plus a page) would overflow.
            for cursor in ["1.9223372036854775807", "1.-1", "x.1", "1"] {
                #expect(try await ops.get("/console/jobs?tenant=acme&state=queued&live=\(cursor)").status == 400, "\(cursor)")
            }
        }
    }

    /// A running job is found by its identity alone, with its worker and lease; once it ends it is found among the
    /// ended, by the same search.
    @Test func aRunningJobIsFoundByItsIdentityAndThenAmongTheEnded() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            harness.startWorker()
            _ = try await harness.startAPI()
            let sleeper = try await harness.submit(#"{"kind": "diag.sleep", "input": {"seconds": 240}}"#, as: client, identity: "night-owl")
            let other = try await harness.submit(#"{"kind": "diag.sleep", "input": {"seconds": 240}}"#, as: client, identity: "early-bird")
            let running = try await harness.awaitRunning(sleeper, client.tenant.id)
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))

            for query in ["identity=night-owl", "identity=night-owl&state=running", "tenant=acme&identity=night-owl&kind=diag.sleep"] {
                let text = ConsoleClient.text(try await ops.get("/console/jobs?\(query)"))
                #expect(text.contains(#"title="\#(sleeper.rawValue)""#), "\(query)")
                #expect(!text.contains(#"title="\#(other.rawValue)""#), "\(query) listed another identity's job")
                #expect(text.contains(">running<"), "\(query)")
            }
            let all = ConsoleClient.text(try await ops.get("/console/jobs?state=running"))
            #expect(all.contains(#"title="\#(sleeper.rawValue)""#) && all.contains("lease "))
            #expect(try await harness.queue.snapshot(sleeper, tenant: client.tenant.id)?.attempt == running.attempt)
            let ended = ConsoleClient.text(try await ops.get("/console/jobs?identity=night-owl&state=cancelled"))
            #expect(!ended.contains(#"title="\#(sleeper.rawValue)""#), "a running job is not among the cancelled")

            for id in [sleeper, other] {
                _ = try await harness.queue.cancel(
                    id, tenant: client.tenant.id, identity: try #require(Identity(validating: id == sleeper ? "night-owl" : "early-bird")))
            }
            _ = try await harness.awaitFinished(sleeper, as: client, identity: "night-owl")
            #expect(
                try await Eventually.holds {
                    let text = ConsoleClient.text(try await ops.get("/console/jobs?identity=night-owl"))
                    return text.contains(#"title="\#(sleeper.rawValue)""#) && text.contains(">cancelled<")
                })
        }
    }
}
