import CurlClient
import Foundation
import Testing

/// `kiln api`'s Prometheus metrics of HTTP requests, as an operator's alert reads them.
@Suite struct RequestMetricsTests {
    @Test func refusedRequestsCountByTheirStatusAndNotAsErrors() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let api = try APIProcess(try harness.kilnCommand([]))
            #expect(try await api.waitUntilReady(within: .seconds(60), http: harness.http))
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

    /// The samples of one metric in a Prometheus text exposition: their labels and values.
    private static func samples(_ name: String, in text: String) -> [(labels: String, value: Double)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix(name + "{"), let close = line.lastIndex(of: "}") else { return nil }
            let value = line[line.index(after: close)...].trimmingCharacters(in: .whitespaces)
            return Double(value).map { (String(line[..<close]), $0) }
        }
    }
}
