import CurlClient
import Foundation
import Hummingbird
import Logging
import ProviderSimulator
import Testing

/// A simulator running in-process on a free port, and a libcurl client to talk to it.
struct SimulatorHarness {
    let baseURL: String
    let client: HTTPClient

    func url(_ path: String) -> String { self.baseURL + path }

    /// Sends a request with a JSON body and buffers the response.
    func send(
        _ path: String, method: String = "POST", json: String? = nil, headers: HTTPHeaders = [:], timeout: Duration = .seconds(30)
    ) async throws -> CurlClient.HTTPResponse {
        var headers = headers
        if json != nil { headers.add(name: "Content-Type", value: "application/json") }
        return try await self.client.execute(
            CurlClient.HTTPRequest(method: method, url: self.url(path), headers: headers, body: json.map { Array($0.utf8) }), timeout: timeout)
    }

    /// Sends a request and reads the whole streamed body, returning it with the error that ended it, if any.
    func stream(
        _ path: String, json: String, headers: HTTPHeaders = [:], timeout: Duration = .seconds(30)
    ) async throws -> (response: HTTPStreamingResponse, body: [UInt8], error: HTTPClientError?) {
        var headers = headers
        headers.add(name: "Content-Type", value: "application/json")
        let response = try await self.client.stream(
            CurlClient.HTTPRequest(method: "POST", url: self.url(path), headers: headers, body: Array(json.utf8)), timeout: timeout)
        var body: [UInt8] = []
        do {
            for try await chunk in response.body { body += chunk }
        } catch let error as HTTPClientError {
            return (response, body, error)
        }
        return (response, body, nil)
    }

    static let anthropicHeaders: HTTPHeaders = ["x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01"]
    static let openAIHeaders: HTTPHeaders = ["Authorization": "Bearer sk-test"]

    static func headers(_ base: HTTPHeaders, fault: String?) -> HTTPHeaders {
        var headers = base
        if let fault { headers.add(name: "x-kiln-fault", value: fault) }
        return headers
    }
}

/// Runs `body` against a fresh simulator and client, and stops both afterwards.
func withSimulator(
    _ configure: (inout SimulatorConfiguration) -> Void = { _ in }, _ body: (SimulatorHarness) async throws -> Void
) async throws {
    var configuration = SimulatorConfiguration(port: 0, deltaInterval: .milliseconds(1))
    configure(&configuration)
    let (ports, portContinuation) = AsyncStream<Int>.makeStream()
    var logger = Logger(label: "simulator-test")
    // Stopping by cancellation logs errors about closed channels, which are expected here.
    logger.logLevel = .critical
    let app = ProviderSimulator.application(configuration: configuration, logger: logger) { port in
        portContinuation.yield(port)
        portContinuation.finish()
    }
    let server = Task { try await app.runService(gracefulShutdownSignals: []) }
    defer { server.cancel() }
    var iterator = ports.makeAsyncIterator()
    let port = try #require(await iterator.next(), "the simulator did not start")
    let client = try HTTPClient()
    defer { client.shutdown() }
    try await body(SimulatorHarness(baseURL: "http://127.0.0.1:\(port)", client: client))
}

/// Parses JSON bytes with Foundation, independently of the simulator's own JSON code.
func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
}
