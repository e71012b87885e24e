import CurlClient
import Foundation
import Spawning

/// `Fixtures/server.py` on a free loopback port, owned by one test.
final class FixtureServer {
    struct StartError: Error {
        let message: String
    }

    let port: Int
    /// The server exits when its stdin closes, so it cannot outlive the test process either.
    private let process: SpawnedProcess

    init() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/server.py")
        self.process = try SpawnedProcess(["python3", script.path, "0"], stdin: .pipe, stdout: .pipe)
        // The process was started with a pipe for each.
        guard let output = self.process.output else { throw StartError(message: "the server has no stdout") }
        // Read on a thread of its own, not one of the few threads every test's async work shares.
        var lines = output.readLines().makeAsyncIterator()
        guard let line = await lines.next() else { throw StartError(message: "server.py exited before printing its port") }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw StartError(message: "server.py printed no port")
        }
        self.port = port
    }

    func url(_ path: String) -> String {
        "http://127.0.0.1:\(self.port)\(path)"
    }

    /// Closes the server's stdin, which ends it at once; nothing waits, so no test thread blocks.
    func stop() {
        try? self.process.input?.close()
    }

    /// Stops the server and waits until its port is closed.
    func stopAndWait() async throws {
        self.stop()
        while self.process.isRunning {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// Runs `body` with a fresh server and client, and stops both afterwards.
func withFixture(
    configuration: HTTPClientConfiguration = .init(),
    _ body: (FixtureServer, HTTPClient) async throws -> Void
) async throws {
    let server = try await FixtureServer()
    defer { server.stop() }
    let client = try HTTPClient(configuration: configuration)
    defer { client.shutdown() }
    try await body(server, client)
}

/// What `/echo` saw.
struct Echo: Decodable {
    let method: String
    let path: String
    let headers: [[String]]
    let body: String

    init(_ response: HTTPResponse) throws {
        self = try JSONDecoder().decode(Echo.self, from: Data(response.body))
    }

    func header(_ name: String) -> String? {
        self.headers.first { $0.first?.lowercased() == name.lowercased() }?.last
    }

    var bodyBytes: [UInt8]? {
        Data(base64Encoded: self.body).map { [UInt8]($0) }
    }
}
