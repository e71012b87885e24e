import Foundation
import KilnConsole
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Testing

/// The console's operator work in headless Chromium, as ``ConsoleBrowserTests`` drives it: blocking and lifting, an
/// operator of one tenant, a long live queue paged through, and every dead letter a filter matches replayed while the
/// list refreshes itself.
@Suite(.enabled(if: ChromeDriver.isInstalled, "chromium or chromedriver (Debian's chromium-driver) is not on PATH"))
struct ConsoleBrowserOperatorTests {
    /// An operator blocks an identity and then a device on the Abuse page: admission refuses each at once, the
    /// identity's page shows both blocks, and once both are lifted on the same page admission admits them again.
    @Test func anOperatorBlocksAnIdentityAndADeviceSeesAdmissionRefuseThenLiftsThem() async throws {
        try await Harness.with { harness in
            let client = try await AbuseTests.start(harness, policy: AbuseTests.policy(maxDevices: 10, identitiesPerDevice: 10))
            #expect(try await AbuseTests.post(harness, client, identity: "mallory", device: "burner").status == 202)
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("night-shift", role: .operator)
            try await ConsoleBrowserTests.withBrowser(harness) { browser in
                try await ConsoleBrowserTests.signIn(browser, base: base, token: token)
                for (kind, subject, reason) in [("identity", "mallory", "chargeback fraud"), ("device", "burner", "stolen phone")] {
                    try await browser.open(base + "/console/blocks")
                    try await browser.type("acme", into: try await browser.element("#block-tenant"))
                    _ = try await browser.run("document.querySelector('#block-kind').value = '\(kind)'; return 0")
                    try await browser.type(subject, into: try await browser.element("#block-subject"))
                    try await browser.type(reason, into: try await browser.element("#block-reason"))
                    try await browser.click(try await browser.element(#"form[action="/console/blocks/block"] button"#))
                    #expect(try await Self.notice(in: browser, contains: "blocked for 24 h"), "\(kind) \(subject)")
                }
                let identity = try await AbuseTests.post(harness, client, identity: "mallory", device: "phone")
                #expect(identity.status == 429 && identity.json?["block_reason"]?.stringValue == "chargeback fraud")
                let device = try await AbuseTests.post(harness, client, identity: "alice", device: "burner")
                #expect(device.status == 429 && device.json?["block_reason"]?.stringValue == "stolen phone")

                try await browser.open(base + "/console/identities?tenant=acme&identity=mallory")
                let page = try await browser.text(of: try await browser.element("main"))
                #expect(page.contains("chargeback fraud"), "the identity's own block: \(page)")
                #expect(page.contains("burner blocked: stolen phone"), "its device's block: \(page)")
                try await ConsoleBrowserTests.screenshots(browser, "identity-blocked")

                for (kind, subject) in [("identity", "mallory"), ("device", "burner")] {
                    try await browser.open(base + "/console/blocks")
                    let note = "#note-acme-\(kind)-\(subject)"
                    try await browser.type("refund reversed", into: try await browser.element(note))
                    try await browser.click(try await browser.element("form:has(\(note)) button"))
                    #expect(try await Self.notice(in: browser, contains: "lifted"), "\(kind) \(subject)")
                }
            }
            #expect(try await AbuseTests.post(harness, client, identity: "mallory", device: "phone").status == 202)
            #expect(try await AbuseTests.post(harness, client, identity: "alice", device: "burner").status == 202)
        }
    }

    /// An operator of `talevonia` signs in through the form and sees its dead letter and its tenant, nothing of
    /// `joanie`'s: not in the lists, and not at the addresses of `joanie`'s job and page.
    @Test func anOperatorOfOneTenantSignsInAndSeesNothingOfAnother() async throws {
        try await Harness.with { harness in
            let (theirs, talevonia) = try await harness.deadJob(tenant: "talevonia")
            let (others, _) = try await harness.deadJob(tenant: "joanie")
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("tv-ops", role: .operator, tenants: [talevonia.tenant.id])
            try await ConsoleBrowserTests.withBrowser(harness) { browser in
                try await ConsoleBrowserTests.signIn(browser, base: base, token: token)
                for path in ["/console", "/console/dead", "/console/jobs", "/console/tenants"] {
                    try await browser.open(base + path)
                    let page = try await browser.source()
                    #expect(page.contains("talevonia") && !page.contains("joanie") && !page.contains(others.rawValue), "\(path)")
                }
                try await browser.open(base + "/console/dead")
                #expect(try await browser.source().contains(theirs.rawValue))
                for path in ["/console/jobs/\(others)", "/console/tenants/joanie"] {
                    try await browser.open(base + path)
                    let heading = try await browser.text(of: try await browser.element("main h1"))
                    #expect(heading.contains("404"), "\(path): \(heading)")
                }
            }
        }
    }

    /// 20,000 queued jobs of a paused tenant, paged through from the first page to the last by the page's own link:
    /// the count says 20000 and every job is listed once.
    @Test func anOperatorPagesThroughTwentyThousandQueuedJobsOfAPausedTenant() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("evalcon")
            #expect(try await harness.redisNamespace.admin.pause(.tenant(client.tenant.id)))
            var queued = Set<String>()
            for index in 0..<20_000 {
                queued.insert(try await harness.enqueueEcho(tenant: client.tenant.id, identity: "user-\(index % 500)").rawValue)
            }
            let base = try await harness.startConsole { $0.pageSize = 500 }
            let token = try await harness.operatorToken("night-shift", role: .viewer)
            try await ConsoleBrowserTests.withBrowser(harness) { browser in
                try await ConsoleBrowserTests.signIn(browser, base: base, token: token)
                try await browser.open(base + "/console/jobs")
                try await browser.type("evalcon", into: try await browser.element("#tenant"))
                _ = try await browser.run("document.querySelector('#state').value = 'queued'; return 0")
                try await browser.click(try await browser.element("form.filters button[type=submit]"))
                // Read in the page itself, and the next page opened by its link's address: the list is part of what
                // each refresh replaces, so an element looked up beforehand may be gone by the time it is used.
                _ = try await browser.element("p.counts")
                let counts = "return document.querySelector('p.counts').textContent"
                #expect(try await browser.run(counts).stringValue?.contains("queued 20000") == true)
                let listed = #"return [...document.querySelectorAll('table.live a[title]')].map((a) => a.title)"#
                let next = #"const a = document.querySelector('a[rel="next"]'); return a ? a.getAttribute('href') : ''"#
                var seen: [String] = []
                for page in 1... {
                    seen += (try await browser.run(listed).arrayValue ?? []).compactMap(\.stringValue)
                    guard let more = try await browser.run(next).stringValue, !more.isEmpty else { break }
                    try #require(page < 100, "the pages never ended")
                    try await browser.open(base + more)
                }
                #expect(seen.count == queued.count)
                #expect(Set(seen) == queued)
            }
        }
    }

    /// 130 dead letters: the list refreshes itself as another job dies, keeping the box the operator ticked; select
    /// all ticks every box of the page; then every match is replayed after a confirmation that counts them, and every
    /// job succeeds.
    @Test func theDeadLettersRefreshThemselvesAndEveryMatchIsReplayedAfterAConfirmation() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            harness.startWorker()
            _ = try await harness.startAPI()
            let failing = #"{"kind": "diag.fail", "input": {"times": 1, "permanent": true}}"#
            var ids: [JobID] = []
            for _ in 0..<130 { ids.append(try await harness.submit(failing, as: client)) }
            let search = JobSearch(pool: harness.database)
            try #require(
                try await Eventually.holds(every: .milliseconds(200)) { try await search.deadLetterCount(tenant: client.tenant.id, kind: nil) == 130 }
            )
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("night-shift", role: .operator)
            try await ConsoleBrowserTests.withBrowser(harness) { browser in
                try await ConsoleBrowserTests.signIn(browser, base: base, token: token)
                try await browser.open(base + "/console/dead?tenant=acme")
                _ = try await browser.element("input[name=id]")
                let tick = "const box = document.querySelector('input[name=id]'); box.click(); window.kilnMark = 1; return box.value"
                let ticked = try #require(try await browser.run(tick).stringValue)

                let late = try await harness.submit(failing, as: client)
                ids.append(late)
                let shown = "return document.querySelector('[data-refresh=dead]').innerHTML.includes('\(late)')"
                #expect(try await Eventually.holds(every: .milliseconds(500)) { try await browser.run(shown) == .bool(true) }, "the new one")
                #expect(try await browser.run("return window.kilnMark || 0").intValue == 1, "the page was reloaded")
                let stillTicked = "return document.querySelector('input[name=id][value=\"\(ticked)\"]').checked"
                #expect(try await browser.run(stillTicked) == .bool(true), "the ticked box stayed ticked")
                _ = try await browser.run("document.querySelector('#pick-all').click(); return 0")
                let boxes = "const all = [...document.querySelectorAll('input[name=id]')]; return [all.length, all.filter((b) => b.checked).length]"
                let ticks = (try await browser.run(boxes).arrayValue ?? []).compactMap(\.intValue)
                #expect(ticks.count == 2 && ticks[0] > 1 && ticks[0] == ticks[1], "select all ticked \(ticks)")

                // Pressed in the page itself: the button is part of what each refresh replaces.
                _ = try await browser.run("document.querySelector('#replay-matching').click(); return 0")
                let confirm = try await browser.element("#confirm")
                let question = try await browser.text(of: try await browser.element("main"))
                #expect(question.contains("Replay all 131 dead letter(s) matching tenant acme, kind any?"), "\(question)")
                try await browser.click(confirm)
                #expect(try await Self.notice(in: browser, contains: "started: replay 131"))
            }
            #expect(
                try await Eventually.holds(every: .milliseconds(200)) {
                    try await harness.consoleAuditOutcomes("dead.replay-matching").contains("finished: replayed 131 of 131")
                })
            // A replay runs with fresh attempts, and this job fails on its first attempt only.
            for id in ids { #expect(try await harness.awaitFinished(id, as: client)["status"]?.stringValue == "succeeded", "\(id)") }
        }
    }

    /// Whether the page's notice comes to contain `text` (a form's answer may still be loading).
    static func notice(in browser: BrowserSession, contains text: String) async throws -> Bool {
        let script = "const n = document.querySelector('.notice'); return n ? n.textContent : ''"
        return try await Eventually.holds(every: .milliseconds(250)) { (try await browser.run(script).stringValue ?? "").contains(text) }
    }
}
