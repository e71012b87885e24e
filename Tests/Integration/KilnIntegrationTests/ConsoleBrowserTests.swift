import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Testing

/// The operators' console in headless Chromium, driven over WebDriver as an operator at 3 am would use it: signing in
/// through the form, replaying a dead letter and watching it succeed; a viewer refused by the server; an expired
/// session sent back to the login. Screenshots at a phone's width and a desktop's go to `.build/console-screenshots/`.
@Suite(.enabled(if: ChromeDriver.isInstalled, "chromium or chromedriver (Debian's chromium-driver) is not on PATH"))
struct ConsoleBrowserTests {
    static let phone = (width: 390, height: 844)
    static let desktop = (width: 1280, height: 900)

    @Test func anOperatorReplaysADeadJobAndSeesItSucceed() async throws {
        try await Harness.with { harness in
            let (id, _) = try await harness.deadJob(tenant: "acme")
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("night-shift", role: .operator)
            try await Self.withBrowser(harness) { browser in
                try await Self.signIn(browser, base: base, token: token)
                #expect(try await browser.currentURL() == base + "/console")
                try await Self.screenshots(browser, "overview")

                try await browser.click(try await browser.element(#"nav a[href="/console/dead"]"#))
                _ = try await browser.element("form.filters")
                #expect(try await browser.text(of: try await browser.element("main h1")) == "Dead letters")
                #expect(try await browser.source().contains(id.rawValue))
                try await Self.screenshots(browser, "dead-letters")

                // Pressed in the page itself: the list, with its boxes and buttons, is what each refresh replaces.
                _ = try await browser.element("#pick-\(id)")
                _ = try await browser.run("document.querySelector('#pick-\(id)').click(); document.querySelector('#replay').click(); return 0")
                #expect(try await browser.text(of: try await browser.element(".notice")) == "replayed 1")

                let state = try await Self.state(of: id, in: browser, base: base, becoming: "succeeded")
                #expect(state == "succeeded")
                try await Self.screenshots(browser, "job")

                try await browser.open(base + "/console/audit")
                let audit = try await browser.text(of: try await browser.element("main table"))
                #expect(audit.contains("night-shift") && audit.contains("dead.replay") && audit.contains("replayed 1"), "\(audit)")
            }
        }
    }

    /// An operator finds a running job by its identity alone, watches its progress bar move on its page, cancels it,
    /// and sees it end cancelled: the page follows the job without being reloaded (a mark the test leaves on it
    /// stays).
    @Test func anOperatorFindsARunningJobWatchesItMoveAndCancelsIt() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            harness.startWorker()
            _ = try await harness.startAPI()
            let id = try await harness.submit(
                #"{"kind": "diag.sleep", "input": {"seconds": 240, "progress_steps": 480}}"#, as: client, identity: "night-owl")
            _ = try await harness.awaitRunning(id, client.tenant.id)
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("night-shift", role: .operator)
            try await Self.withBrowser(harness) { browser in
                try await Self.signIn(browser, base: base, token: token)
                try await browser.open(base + "/console/jobs")
                try await browser.type("night-owl", into: try await browser.element("#identity"))
                try await browser.click(try await browser.element("form.filters button[type=submit]"))
                // Opened by the row's own link, read in the page: the list is what each refresh replaces.
                _ = try await browser.element(#"a[title="\#(id.rawValue)"]"#)
                let link = try await browser.run(#"return document.querySelector('a[title="\#(id.rawValue)"]').getAttribute('href')"#)
                try await browser.open(base + (link.stringValue ?? ""))
                // Read in the page itself: the live part is replaced whenever the job moves, so an element looked up
                // beforehand may be gone by the time its text is asked for.
                let state = "const e = document.querySelector('.facts .state'); return e ? e.textContent : ''"
                #expect(try await browser.run(state).stringValue == "running")
                try await Self.screenshots(browser, "job-running")

                _ = try await browser.run("window.kilnMark = 1; return 0")
                let progress = "const p = document.querySelector('.facts progress'); return p ? p.value : -1"
                let first = try await browser.run(progress).intValue ?? -1
                #expect(
                    try await Eventually.holds(every: .milliseconds(250)) { (try await browser.run(progress).intValue ?? -1) > first },
                    "the progress bar stayed at \(first)")

                // Pressed in the page itself too: the button is part of what each event replaces.
                _ = try await browser.run(#"document.querySelector('form[action$="/cancel"] button').click(); return 0"#)
                _ = try await browser.element(".notice")
                _ = try await browser.run("window.kilnMark = 2; return 0")
                #expect(
                    try await Eventually.holds(every: .milliseconds(250)) { try await browser.run(state).stringValue == "cancelled" })
                #expect(try await browser.run("return window.kilnMark || 0").intValue == 2, "the page was reloaded")
                #expect(try await browser.find(#"form[action$="/cancel"]"#) == nil, "an ended job offers no cancel")
            }
        }
    }

    @Test func aViewerIsRefusedByTheServerAndAnExpiredSessionSignsInAgain() async throws {
        try await Harness.with { harness in
            let (id, _) = try await harness.deadJob(tenant: "acme")
            let base = try await harness.startConsole()
            let token = try await harness.operatorToken("auditor", role: .viewer)
            try await Self.withBrowser(harness) { browser in
                try await Self.signIn(browser, base: base, token: token)
                try await browser.open(base + "/console/dead")
                #expect(try await browser.source().contains(id.rawValue))
                #expect(try await browser.find("#replay") == nil, "a viewer is shown no replay button")
                #expect(try await browser.find("#pick-\(id)") == nil, "nor a checkbox to pick a job with")

                // What the page would have sent, with the viewer's own session and CSRF token: the server refuses it.
                let csrf = try #require(try await browser.attribute("value", of: try await browser.element(#"input[name="csrf"]"#)))
                let session = try #require(try await browser.cookie("kiln_console"), "the browser holds the session cookie")
                let viewer = ConsoleClient(http: harness.http, base: base, session: session)
                let replay = try await viewer.post("/console/dead/replay", ["csrf": csrf, "id": id.rawValue])
                #expect(replay.status == 403)
                #expect(ConsoleClient.text(replay).contains("a viewer may look but not act"))
                #expect(try await harness.isUntouchedDeadLetter(id), "the job is still dead, never replayed")

                try await harness.expireConsoleSessions()
                try await browser.open(base + "/console/jobs/\(id)")
                #expect(try await browser.currentURL().hasPrefix(base + "/console/login?next="))
                #expect(try await browser.find("#token") != nil, "the login form is shown")
                try await Self.signIn(browser, base: base, token: token, alreadyOnTheForm: true)
                #expect(try await browser.currentURL() == base + "/console/jobs/\(id)", "signing in again goes back to the job")
            }
        }
    }

    /// Runs `body` with a headless Chromium at desktop size, closed (and its chromedriver stopped) afterwards.
    static func withBrowser(_ harness: Harness, _ body: (BrowserSession) async throws -> Void) async throws {
        let driver = try await ChromeDriver()
        do {
            let browser = try await BrowserSession(driver: driver, http: harness.http, width: desktop.width, height: desktop.height)
            do {
                try await body(browser)
            } catch {
                try? await browser.close()
                throw error
            }
            try await browser.close()
        } catch {
            await driver.stop()
            throw error
        }
        await driver.stop()
    }

    /// Signs in through the form the console shows a browser without a session, and waits for the page it goes to.
    static func signIn(_ browser: BrowserSession, base: String, token: String, alreadyOnTheForm: Bool = false) async throws {
        if !alreadyOnTheForm { try await browser.open(base + "/console") }
        try await browser.type(token, into: try await browser.element("#token"))
        try await browser.click(try await browser.element("form.login button[type=submit]"))
        _ = try await browser.element("form.who")
    }

    /// The job's state on its page, reloaded until it reads `expected` (or two minutes pass, which only bounds a hung
    /// test on a loaded machine).
    static func state(of id: JobID, in browser: BrowserSession, base: String, becoming expected: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(120)
        var state = ""
        while ContinuousClock.now < deadline {
            try await browser.open(base + "/console/jobs/\(id)")
            state = try await browser.text(of: try await browser.element(".facts .state"))
            if state == expected { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        return state
    }

    /// Whole-page screenshots of the page shown at a phone's width and a desktop's, as
    /// `.build/console-screenshots/NAME-phone.png` and `NAME-desktop.png`, for a person to look at (they are compared
    /// with nothing); at either width the page must fit, a wide table scrolling inside its own box.
    static func screenshots(_ browser: BrowserSession, _ name: String) async throws {
        let directory = TestServers.repositoryRoot.appendingPathComponent(".build/console-screenshots", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (size, label) in [(phone, "phone"), (desktop, "desktop")] {
            try await browser.resize(width: size.width, height: size.height)
            let page = try await browser.run(
                "const e = document.documentElement; return [e.scrollWidth, e.clientWidth, e.scrollHeight, window.outerHeight - window.innerHeight]")
            guard let figures = page.arrayValue?.compactMap(\.intValue), figures.count == 4 else { throw TestFailure("the page's size: \(page)") }
            #expect(figures[0] <= figures[1], "\(name) at \(label) width is \(figures[0]) px wide, wider than the window's \(figures[1])")
            try await browser.resize(width: size.width, height: max(size.height, figures[2] + figures[3]))
            try await browser.screenshot().write(to: directory.appendingPathComponent("\(name)-\(label).png"))
        }
    }
}
