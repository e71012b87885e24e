import CurlClient
import Foundation
import KilnJSON
import Testing

/// `kiln api`'s Prometheus metrics of HTTP requests, as an operator's alert reads them.
@Suite struct RequestMetricsTests {
    @Test func refusedRequestsCountByTheirStatusAndNotAsErrors() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let api = try await harness.readyAPI()
            let refusals: [(request: HTTPRequest, status: Int)] = [
                (try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"no.such_kind","input":{}}"#, base: api.url), 400),
                (try harness.request("POST", "/v1/jobs", as: client, body: "not json", base: api.url), 400),
                (HTTPRequest(method: "POST", url: api.url + "/v1/jobs", headers: ["Authorization": "Bearer kiln_wrong"]), 401),
                (try harness.request("GET", "/v1/jobs/00000000-0000-0000-0000-000000000000", as: client, base: api.url), 404),
                (HTTPRequest(method: "GET", url: api.url + "/no/such/route"), 404),
            ]
            for (request, status) in refusals {
                #expect(try await harness.send(request).status == status)
            }
            let metrics = try await harness.send(HTTPRequest(method: "GET", url: api.url + "/metrics"))
            let text = String(decoding: metrics.response.body, as: UTF8.self)
            let requests = Self.samples("hb_requests", in: text)
            #expect(requests.filter { $0.labels.contains(#"http_response_status_code="400""#) }.map(\.value).reduce(0, +) == 2)
            #expect(requests.filter { $0.labels.contains(#"http_response_status_code="401""#) }.map(\.value).reduce(0, +) == 1)
            #expect(requests.filter { $0.labels.contains(#"http_response_status_code="404""#) }.map(\.value).reduce(0, +) == 2)
            #expect(requests.allSatisfy { !$0.labels.contains(#"http_response_status_code="5"#) })
            // Errors are the server's failures: no client's mistake raises them.
            #expect(Self.samples("hb_request_errors", in: text).map(\.value).reduce(0, +) == 0)
        }
    }

    @Test func answersAndEventStreamsAreCountedAndTimedOnceEach() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let api = try await harness.readyAPI()
            harness.startWorker()
            let submitted = try await harness.send(
                try harness.request("POST", "/v1/jobs", as: client, body: #"{"kind":"diag.echo","input":{"message":"hi"}}"#, base: api.url))
            let id = try #require(submitted.json?["id"]?.stringValue)
            var looks = 0
            var state: String?
            while state != "succeeded", looks < 500 {
                looks += 1
                state = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)", as: client, base: api.url)).json?["status"]?.stringValue
                if state != "succeeded" { try await Task.sleep(for: .milliseconds(20)) }
            }
            #expect(state == "succeeded")
            // A finished job's stream replays its events and ends.
            let stream = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/events", as: client, base: api.url))
            #expect(stream.status == 200)
            #expect(String(decoding: stream.response.body, as: UTF8.self).contains("event: status"))

            let text = String(decoding: try await harness.send(HTTPRequest(method: "GET", url: api.url + "/metrics")).response.body, as: UTF8.self)
            let series: [(route: String, method: String, status: String, count: Int)] = [
                ("/v1/jobs", "POST", "202", 1), ("/v1/jobs/{id}", "GET", "200", looks), ("/v1/jobs/{id}/events", "GET", "200", 1),
            ]
            for (route, method, status, count) in series {
                let labels = [#"http_route="\#(route)""#, #"http_request_method="\#(method)""#, #"http_response_status_code="\#(status)""#]
                let matching = { (name: String) in
                    Self.samples(name, in: text).filter { sample in labels.allSatisfy(sample.labels.contains) }.map(\.value).reduce(0, +)
                }
                #expect(matching("hb_requests") == Double(count), "\(method) \(route)")
                #expect(matching("http_server_request_duration_count") == Double(count), "\(method) \(route)")
            }
        }
    }

    /// The samples of one metric in a Prometheus text exposition: their labels and values.
    private static func samples(_ name: String, in text: String) -> [(labels: String, value: Double)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(name + "{"), let close = line.lastIndex(of: "}") else { return nil }
            let value = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            return Double(value).map { (String(line[..<close]), $0) }
        }
    }
}
