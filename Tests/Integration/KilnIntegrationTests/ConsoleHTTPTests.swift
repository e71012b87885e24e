import CurlClient
import Foundation
import KilnConsole
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import PostgresClient
import Testing

/// The operators' console over plain HTTP: signing in, its session cookie, and the gate in front of every page and
/// action (sessions, CSRF tokens, origins, roles), against real Redis and PostgreSQL.
@Suite struct ConsoleHTTPTests {
    @Test func signingInGivesAStrictHttpOnlyCookieAndAPageWithoutOneAsksForIt() async throws {
        try await Harness.with { harness in
            let console = ConsoleClient(http: harness.http, base: try await harness.startConsole())
            let token = try await harness.operatorToken("night-shift", role: .operator)

            let refused = try await console.signIn(token: "kop_" + String(repeating: "0", count: 64))
            #expect(refused.status == 401)
            #expect(ConsoleClient.text(refused).contains(#"id="token""#), "the form comes back")
            #expect(ConsoleClient.text(refused).contains("not an active operator"))
            #expect(ConsoleClient.cookie(refused) == nil)
            let crossSite = try await console.signIn(token: token, origin: "https://evil.example")
            #expect(crossSite.status == 403, "another site's form cannot sign this browser in")
            #expect(ConsoleClient.cookie(crossSite) == nil)

            let away = try await console.get("/console/dead?tenant=acme")
            #expect(away.status == 303 || away.status == 302)
            let login = try #require(away.header("Location"))
            #expect(login == "/console/login?next=%2Fconsole%2Fdead%3Ftenant%3Dacme")
            #expect(ConsoleClient.text(try await console.get(login)).contains(#"value="/console/dead?tenant=acme""#))

            let signedIn = try await console.signIn(token: token, next: "/console/dead?tenant=acme")
            #expect(signedIn.header("Location") == "/console/dead?tenant=acme", "signing in goes back to the page asked for")
            let cookie = try #require(ConsoleClient.cookie(signedIn))
            #expect(cookie.value.count >= 32)
            #expect(Set(cookie.attributes) == ["Max-Age=43200", "Path=/console", "HttpOnly", "SameSite=Strict"], "\(cookie.attributes)")
            let page = try await ConsoleClient(http: harness.http, base: console.base, session: cookie.value).get("/console/dead?tenant=acme")
            #expect(page.status == 200)
            #expect(ConsoleClient.text(page).contains("night-shift"))
            #expect(try await harness.consoleAuditOutcomes("sign-in") == ["refused: unknown token", "done"])
        }
    }

    @Test func theCookieIsSecureWhenTheConsoleIsReachedOverHTTPS() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole { $0.publicURL = "https://console.kiln.example" }
            let token = try await harness.operatorToken("night-shift", role: .viewer)
            let signedIn = try await ConsoleClient(http: harness.http, base: base).signIn(token: token)
            let cookie = try #require(ConsoleClient.cookie(signedIn))
            #expect(cookie.attributes.contains("Secure"), "\(cookie.attributes)")
            #expect(cookie.attributes.contains("HttpOnly"))
        }
    }

    @Test func anExpiredSessionIsSentBackToTheLogin() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole()
            let console = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let token = try await console.csrfToken(on: "/console/jobs")
            try await harness.expireConsoleSessions()
            let expired = try await console.get("/console/jobs")
            #expect(expired.status == 303 || expired.status == 302)
            #expect(expired.header("Location")?.hasPrefix("/console/login?next=") == true)
            let action = try await console.post("/console/logout", ["csrf": token])
            #expect(action.header("Location") == "/console/login", "an action is not replayed after signing in")
        }
    }

    /// Five failed sign-ins make their address wait, its operator's token included, while another address signs in;
    /// the audit log names where each came from and does not grow with the tries refused unchecked.
    @Test func failedSignInsMakeTheirAddressWaitAndTheAuditNamesIt() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole { $0.clientAddressHeader = "X-Forwarded-For" }
            let token = try await harness.operatorToken("ops", role: .operator)
            let attacker = ConsoleClient(http: harness.http, base: base, forwardedFor: "203.0.113.9")
            for _ in 0..<5 { #expect(try await attacker.signIn(token: "kiln_op_wrong").status == 401) }
            for tried in ["kiln_op_wrong", token] {
                let refused = try await attacker.signIn(token: tried)
                #expect(refused.status == 429, "\(refused.status)")
                #expect(refused.header("Retry-After").flatMap(Int.init).map { (1...600).contains($0) } == true)
            }
            let operatorsOwn = ConsoleClient(http: harness.http, base: base, forwardedFor: "198.51.100.4")
            let signedIn = try await operatorsOwn.signIn(token: token)
            #expect(signedIn.status == 303 || signedIn.status == 302)
            let rows = try await harness.database.query("SELECT outcome, address FROM console_audit WHERE action = 'sign-in' ORDER BY id").map {
                (try $0.decode("outcome", as: String.self), try $0.decode("address", as: String.self))
            }
            #expect(rows.count == 6, "\(rows)")
            #expect(rows.prefix(5).allSatisfy { $0.1 == "203.0.113.9" && $0.0.hasPrefix("refused: unknown token") })
            #expect(rows[4].0 == "refused: unknown token; this address waits")
            #expect(rows.last.map { $0 == ("done", "198.51.100.4") } == true)
        }
    }

    /// Revoking a key and pausing a whole class ask first and act only when confirmed; a new key is shown once, on the
    /// page its creation redirects to, to the session that made it, and reloading that page makes no other.
    @Test func oneClickNeverRevokesOrPausesAClassAndANewKeyIsShownOnce() async throws {
        try await Harness.with { harness in
            _ = try await harness.tenant("acme")
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let other = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("other", role: .operator))
            let csrf = try await ops.csrfToken(on: "/console/tenants/acme")
            let keys = APIKeyStore(pool: harness.database)
            let tenant = try #require(TenantID(validating: "acme"))

            let created = try await ops.post("/console/tenants/acme/keys", ["csrf": csrf])
            let location = try #require(created.header("Location"), "creating a key answered \(created.status)")
            #expect(location.hasPrefix("/console/tenants/acme?key="))
            #expect(!ConsoleClient.text(created).contains("kiln_"), "the key is not in the POST's answer")
            let shown = ConsoleClient.text(try await ops.get(location))
            #expect(shown.contains(#"id="new-key""#))
            #expect(!ConsoleClient.text(try await ops.get(location)).contains(#"id="new-key""#), "shown once")
            #expect(!ConsoleClient.text(try await other.get(location)).contains(#"id="new-key""#))
            #expect(try await keys.list(tenant: tenant).count == 2, "the tenant's first key and the one created")

            let prefix = try #require(try await keys.list(tenant: tenant).first { $0.revokedAt == nil }?.prefix)
            let asked = try await ops.post("/console/tenants/acme/keys/revoke", ["csrf": csrf, "prefix": prefix])
            #expect(asked.status == 200 && ConsoleClient.text(asked).contains("Revoke acme&#39;s key \(prefix)?"), "\(ConsoleClient.text(asked))")
            #expect(try await keys.list(tenant: tenant).allSatisfy { $0.revokedAt == nil })
            let revoked = try await ops.post("/console/tenants/acme/keys/revoke", ["csrf": csrf, "prefix": prefix, "confirm": "yes"])
            #expect(revoked.status == 303 || revoked.status == 302)
            #expect(try await keys.list(tenant: tenant).filter { $0.revokedAt != nil }.map(\.prefix) == [prefix])

            let pause = try await ops.post("/console/lanes/pause", ["csrf": csrf, "class": "io", "back": "/console"])
            #expect(pause.status == 200 && ConsoleClient.text(pause).contains("Pause class io?"))
            #expect(try await harness.redisNamespace.admin.paused().isEmpty)
            let paused = try await ops.post("/console/lanes/pause", ["csrf": csrf, "class": "io", "back": "/console", "confirm": "yes"])
            #expect(paused.status == 303 || paused.status == 302)
            #expect(try await harness.redisNamespace.admin.paused() == [.jobClass(.io)])
        }
    }

    /// An error page keeps a signed-in operator's navigation and Sign out, whether the error came before the gate (a
    /// path the console does not have) or after it (a job that is not there).
    @Test func anErrorPageKeepsTheNavigation() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            for path in ["/console/no-such-page", "/console/jobs/01a24301-0000-7000-8000-000000000000"] {
                let page = try await ops.get(path)
                #expect(page.status == 404, "\(path)")
                #expect(ConsoleClient.text(page).contains(#"href="/console/audit""#), "\(path) lost the navigation")
                #expect(ConsoleClient.text(page).contains("/console/logout"), "\(path) lost Sign out")
            }
        }
    }

    /// The overview charts the last hour a bar a minute, or the last day a bar per ten minutes, from what the workers'
    /// heartbeats counted, with a dead job's count beside a burst; any other window is refused with the choices.
    @Test func theOverviewChartsTheLastHourOrTheLastDay() async throws {
        try await Harness.with { harness in
            _ = try await harness.tenant("acme")
            var ended = OutcomeTally()
            ended.add(.succeeded, jobClass: .io, tenant: "acme", count: 1_200)
            ended.add(.dead, jobClass: .io, tenant: "acme")
            let heartbeat = WorkerHeartbeat(
                id: "host-1-42", host: "host-1", pid: 42, classes: [.io: 4], version: "1.2.3", startedAtMilliseconds: 1_789_000_000_000,
                lanes: [], providers: [])
            try await harness.redisNamespace.fleet.beat(heartbeat, ended: ended, expiresAfter: .seconds(60))
            let base = try await harness.startConsole()
            let viewer = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("eyes", role: .viewer))
            for (window, heading) in [("", "Ended, last 60 min"), ("?window=1h", "Ended, last 60 min"), ("?window=24h", "Ended, last 24 h")] {
                let page = ConsoleClient.text(try await viewer.get("/console" + window))
                #expect(page.contains(heading), "\(window)")
                #expect(page.contains("acme, \(heading): 1200 done, 0 failed, 1 dead"), "\(window)")
            }
            let other = try await viewer.get("/console?window=week")
            #expect(other.status == 400)
            #expect(ConsoleClient.text(other).contains("window: one of 1h, 24h"))
        }
    }

    /// The audit log filters by operator, action, what it was on and time, and its next page keeps the filter.
    @Test func theAuditLogFiltersByOperatorActionTargetAndTime() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole { $0.pageSize = 2 }
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let annsToken = try await harness.operatorToken("ann", role: .viewer)
            for _ in 0..<3 { _ = try await ConsoleClient.signedIn(harness.http, base: base, token: annsToken) }
            _ = try await ConsoleClient(http: harness.http, base: base).signIn(token: "kiln_op_wrong")
            func rows(_ query: String) async throws -> [String] {
                let page = ConsoleClient.text(try await ops.get("/console/audit?" + query))
                return page.matches(of: #/<tr><td[^>]*>[^<]*</td><td[^>]*>([^<]*)</td><td[^>]*>([^<]*)</td>/#).map { "\($0.output.1) \($0.output.2)" }
            }
            #expect(try await rows("operator=ann") == ["ann sign-in", "ann sign-in"])
            let page = ConsoleClient.text(try await ops.get("/console/audit?operator=ann"))
            let next = try #require(page.firstMatch(of: #/href="/console/audit\?([^"]+)"/#)?.output.1).replacingOccurrences(of: "&amp;", with: "&")
            #expect(next.contains("operator=ann"))
            #expect(try await rows(String(next)) == ["ann sign-in"])
            #expect(try await rows("operator=-&action=sign-in") == ["- sign-in"])
            #expect(try await rows("on=consol&operator=ops") == ["ops sign-in"])
            #expect(try await rows("from=2999-01-01").isEmpty)
            #expect(try await ops.get("/console/audit?from=yesterday").status == 400)
        }
    }

    /// A link cannot put words in the console's notice box: a notice is shown only with its session's signature.
    @Test func aNoticeFromALinkIsNotShown() async throws {
        try await Harness.with { harness in
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            for forged in ["/console?notice=Call%20support%20at%20evil.example", "/console?notice=hi&notice_sig=00"] {
                let page = ConsoleClient.text(try await ops.get(forged))
                #expect(!page.contains(#"class="notice""#) && !page.contains("evil.example"), "\(forged)")
            }
        }
    }

    /// The short ids of a list are the ids' random ends, which differ, not their starts, which are the time they were
    /// made; a job's artifact is downloaded as a file, never shown as a page of the console's.
    @Test func shortIDsDifferAndAnArtifactIsAnAttachmentThatIsNeverSniffed() async throws {
        try await Harness.with { harness in
            let first = try await harness.deadJob(tenant: "acme")
            let second = try await harness.submit(#"{"kind": "diag.fail", "input": {"times": 1, "permanent": true}}"#, as: first.client)
            let echoed = try await harness.submit(
                #"{"kind": "diag.echo", "input": {"message": "hi", "artifact": "<script>alert(1)</script>"}}"#, as: first.client)
            for id in [second, echoed] { _ = try await harness.awaitFinished(id, as: first.client) }
            #expect(try await Eventually.holds { try await JobSearch(pool: harness.database).job(second)?.finishedAt != nil })
            #expect(try await Eventually.holds { try await JobSearch(pool: harness.database).job(echoed)?.finishedAt != nil })
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let dead = ConsoleClient.text(try await ops.get("/console/dead"))
            for id in [first.id, second] {
                #expect(dead.contains(#"title="\#(id.rawValue)">\#(id.rawValue.suffix(8))…"#), "\(id)")
            }
            #expect(first.id.rawValue.suffix(8) != second.rawValue.suffix(8))

            let page = ConsoleClient.text(try await ops.get("/console/jobs/\(echoed)"))
            let link = try #require(page.firstMatch(of: #/href="(/console/jobs/[^"]+/artifacts/[^"]+)"/#)?.output.1, "no artifact link")
            let download = try await ops.get(String(link).replacingOccurrences(of: "&amp;", with: "&"))
            #expect(download.status == 200)
            #expect(download.header("Content-Disposition")?.hasPrefix("attachment; filename=") == true)
            #expect(download.header("X-Content-Type-Options") == "nosniff")
            #expect(download.header("Content-Security-Policy")?.contains("sandbox") == true)
        }
    }

    @Test func actionsNeedTheSessionsCSRFTokenTheConsolesOriginAndAnOperator() async throws {
        try await Harness.with { harness in
            let (id, client) = try await harness.deadJob(tenant: "acme")
            let base = try await harness.startConsole()
            let ops = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("ops", role: .operator))
            let other = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("other", role: .operator))
            let viewer = try await ConsoleClient.signedIn(harness.http, base: base, token: try await harness.operatorToken("look", role: .viewer))
            let token = try await ops.csrfToken(on: "/console/dead")

            let withoutToken = try await ops.post("/console/dead/replay", ["id": id.rawValue])
            #expect(withoutToken.status == 403)
            let othersToken = try await ops.post("/console/dead/replay", ["csrf": try await other.csrfToken(on: "/console/dead"), "id": id.rawValue])
            #expect(othersToken.status == 403)
            let foreign = try await ops.post("/console/dead/replay", ["csrf": token, "id": id.rawValue], origin: "https://evil.example")
            #expect(foreign.status == 403)
            #expect(ConsoleClient.text(foreign).contains("another site"))

            let viewerPage = ConsoleClient.text(try await viewer.get("/console/dead"))
            #expect(viewerPage.contains(id.rawValue))
            #expect(!viewerPage.contains(#"id="replay""#), "a viewer is shown no replay button")
            let byViewer = try await viewer.post(
                "/console/dead/replay", ["csrf": try #require(ConsoleClient.csrfToken(in: viewerPage)), "id": id.rawValue])
            #expect(byViewer.status == 403)
            #expect(ConsoleClient.text(byViewer).contains("a viewer may look but not act"))

            let refusals = try await harness.consoleAuditOutcomes("/console/dead/replay")
            #expect(refusals.count == 4, "\(refusals)")
            #expect(refusals.filter { $0.hasPrefix("refused: the form's CSRF token is missing or stale") }.count == 2)
            #expect(refusals.contains { $0.hasPrefix("refused: the form came from another site") })
            #expect(refusals.contains { $0.hasPrefix("refused: a viewer may look but not act") })
            #expect(try await harness.isUntouchedDeadLetter(id), "no refused action replayed the job")

            let replayed = try await ops.post("/console/dead/replay", ["csrf": token, "id": id.rawValue])
            #expect(replayed.status == 303 || replayed.status == 302)
            let location = try #require(replayed.header("Location"))
            #expect(location.hasPrefix("/console/dead?notice=replayed%201&notice_sig="), "\(location)")
            // The notice is shown to the session whose action it reports, and to no other.
            #expect(ConsoleClient.text(try await ops.get(location)).contains(#"class="notice""#))
            #expect(!ConsoleClient.text(try await other.get(location)).contains(#"class="notice""#))
            #expect(try await harness.consoleAuditOutcomes("dead.replay") == ["replayed 1"])
            let audit = ConsoleClient.text(try await viewer.get("/console/audit"))
            #expect(audit.contains("dead.replay") && audit.contains(id.rawValue) && audit.contains("replayed 1"))
            #expect(try await harness.awaitFinished(id, as: client)["status"] == "succeeded")
        }
    }
}
