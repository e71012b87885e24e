import Foundation
import KilnCore
import KilnQueue
import KilnStore
import Testing

@testable import KilnConsole

/// What the console's pages print, rendered from their real templates without servers: what a tenant said not to keep
/// never shows, what a tenant sent never becomes markup, and what an operator types is read as meant.
struct ConsolePageTests {
    static let viewer = Viewer(SignedIn(operator: Operator(name: "alice", role: .operator, createdAt: Date(), revokedAt: nil), secret: "s3cret"))

    static func job(input: String, result: String?) -> JobRecord {
        JobRecord(
            id: JobID(validating: "0b6e1c9a-4d2f-4a8e-9f55-7f7d3b1f0c11")!, tenant: TenantID(validating: "talevonia")!,
            identity: Identity(validating: "ot:2000000123")!, kind: "text.continue", priority: .normal, state: .succeeded, attempt: 1,
            maxAttempts: 3, input: input, result: result, errorCode: nil, errorMessage: nil, createdAt: Date(), startedAt: Date(),
            finishedAt: Date())
    }

    static func render(_ job: JobRecord, keepInputs: Bool, keepResults: Bool) async throws -> String {
        let model = JobPageModel(
            job: job, live: nil, recorded: true, events: [], viewer: viewer, input: ShownText(job.input, kept: keepInputs),
            result: ShownText(job.result, kept: keepResults), resultsKept: keepResults, artifacts: [])
        return try await ConsoleRenderer.load().fragment("job", model)
    }

    @Test func aTenantThatKeepsNoInputsShowsTheirSizeAndHashNotTheirText() async throws {
        let input = #"{"story":"Mira took the lighthouse job on a Tuesday."}"#
        let page = try await Self.render(Self.job(input: input, result: #"{"text":"Gulls."}"#), keepInputs: false, keepResults: true)
        #expect(!page.contains("lighthouse"))
        #expect(page.contains(Digest.sha256Hex(input)))
        #expect(page.contains("Gulls."), "results the tenant keeps are shown")
    }

    @Test func whatATenantSentIsPrintedAsTextNeverAsMarkup() async throws {
        let page = try await Self.render(
            Self.job(input: #"{"story":"<script>alert(1)</script>"}"#, result: nil), keepInputs: true, keepResults: true)
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("&lt;script&gt;"))
    }

    @Test func theTimelineFoldsStreamedTextIntoACount() {
        let events = [
            JobEvent(id: "1764137000000-0", type: "status", data: #"{"state":"running","attempt":1}"#),
            JobEvent(id: "1764137000001-0", type: "delta", data: #"{"text":"secret words"}"#),
            JobEvent(id: "1764137000002-0", type: "delta", data: #"{"text":"more"}"#),
            JobEvent(id: "1764137000003-0", type: "status", data: #"{"state":"succeeded","attempt":1}"#),
        ]
        let timeline = JobPageModel.timeline(events)
        #expect(timeline.map(\.type) == ["status", "delta", "status"])
        #expect(timeline[1].detail == "2 streamed parts")
        #expect(!timeline.contains { $0.detail.contains("secret words") })
    }

    @Test func formsAreDecodedAsBrowsersEncodeThem() {
        let form = FormBody("csrf=abc&note=spam+from+a%2Fbot&id=1&id=2&empty=")
        #expect(form["note"] == "spam from a/bot")
        #expect(form.all("id") == ["1", "2"])
        #expect(form["empty"] == nil)
        #expect(form["missing"] == nil)
    }

    @Test func aSearchPostedToActOnItsMatchesIsReadAsTheSearch() throws {
        let form = FormBody("csrf=abc&tenant=acme&identity=night-owl&kind=&state=queued&from=2026-11-26")
        let query = try JobFilterQuery(form, narrowing: { $0 })
        #expect(query.described == "tenant acme, identity night-owl, kind any, state queued, created from 2026-11-26")
        #expect(query.live?.places == [.queued, .held, .waiting])
        #expect(query.live?.state == .queued && query.live?.tenant?.rawValue == "acme")
        #expect(try JobFilterQuery(FormBody("tenant=acme&state=succeeded"), narrowing: { $0 }).live == nil, "an ended job is not cancelled")
        #expect(throws: (any Error).self) { try JobFilterQuery(FormBody("state=sleeping"), narrowing: { $0 }) }
    }

    @Test func signingInReturnsOnlyToAConsolePage() {
        #expect(SignInRoutes.safeNext("/console/dead?tenant=a") == "/console/dead?tenant=a")
        for hostile in ["https://evil.example/console", "//evil.example", "/console\\@evil", nil, "/v1/jobs"] {
            #expect(SignInRoutes.safeNext(hostile) == "/console")
        }
    }

    @Test func aPageCursorSurvivesItsLink() throws {
        let cursor = JobSearch.Cursor(
            at: Date(timeIntervalSince1970: 1_764_137_000.123), id: try #require(JobID(validating: "0b6e1c9a-4d2f-4a8e-9f55-7f7d3b1f0c11")))
        #expect(JobSearch.Cursor(text: cursor.text) == cursor)
        #expect(JobSearch.Cursor(text: "yesterday_0b6e1c9a") == nil)
    }

    @Test func theChartSaysWhatItDrawsAndKeepsOneDeadJobBesideABurstVisible() throws {
        let bars: [BarChart.Bar] = [.init(done: 3, failed: 1, dead: 0), .init(done: 0, failed: 0, dead: 0), .init(done: 5_000, failed: 0, dead: 1)]
        let svg = BarChart(bars: bars, window: .hour, label: "io, last 60 min").svg
        #expect(svg.contains(#"aria-label="io, last 60 min: 5003 done, 1 failed, 1 dead; at most 5000 done and 1 failed /min""#))
        #expect(svg.contains(">5000</text>") && svg.contains(">/min</text>") && svg.contains(">−60 min</text>") && svg.contains(">now</text>"))
        func heights(_ kind: String) throws -> [Double] {
            svg.matches(of: try Regex(#"<rect class="\#(kind)"[^>]*height="([0-9.]+)""#)).compactMap { $0.output[1].substring.flatMap { Double($0) } }
        }
        let done = try heights("bar")
        let failed = try heights("fail")
        let dead = try heights("dead")
        #expect(done.count == 2 && failed.count == 1 && dead.count == 1, "two bars of work, one of each failure, nothing for the idle bar")
        // Each half has its own scale: the one dead job is drawn as tall as the one retried, its half's peak, and
        // not a thousandth of the burst's bar.
        #expect(dead == failed)
        #expect(try #require(dead.first) * 3 > (done.max() ?? 0))
        #expect(BarChart(bars: bars, window: .day, label: "io").svg.contains(">−24 h</text>"))
    }
}
