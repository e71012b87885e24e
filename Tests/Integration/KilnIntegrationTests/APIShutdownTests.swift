import CurlClient
import Foundation
import Glibc
import KilnJSON
import KilnProviders
import Testing

/// An API node stopped as a deploy or a scale-in stops it: with SIGTERM, while clients follow jobs' event streams.
@Suite struct APIShutdownTests {
    @Test func sigtermEndsAnOpenEventStreamCleanlyAndTheNodeExits() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let api = try await harness.readyAPI()
            // A job due in an hour: its stream has nothing more to say for an hour.
            let submit = try harness.request(
                "POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"message":"later"},"delay_seconds":3600}"#, base: api.url)
            let id = try #require(try await harness.send(submit).json?["id"]?.stringValue)
            // Bounded, as every wait on a job in these tests, so a stream that never ends fails the test instead of hanging it.
            let response = try await harness.http.stream(
                try harness.request("GET", "/v1/jobs/\(id)/events", as: client, base: api.url), timeout: .seconds(30))
            var parser = ServerSentEventParser()
            var events: [String?] = []
            var chunks = response.body.makeAsyncIterator()
            while events.isEmpty, let chunk = try await chunks.next() { events += parser.parse(chunk).map(\.event) }
            #expect(events == ["status"])
            api.kill(SIGTERM)
            // The stream ends as an HTTP response ends, with no error (the client resumes after its last event on
            // another node), and nothing more is sent on it.
            var after: [String?] = []
            while let chunk = try await chunks.next() { after += parser.parse(chunk).map(\.event) }
            #expect(after.isEmpty)
            // Before, the node waited for the job to end, an hour here; systemd and Kubernetes kill it after 30 s.
            #expect(try await api.waitForExit(within: .seconds(20)))
        }
    }
}
