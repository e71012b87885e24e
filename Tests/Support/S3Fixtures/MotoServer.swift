public import CurlClient
import Foundation
public import S3Client
import Spawning

/// moto's S3 server (`moto_server.py` beside this file) on a free loopback port, owned by one test, with moto's
/// signature and IAM checks on from the first request.
public final class MotoServer {
    public struct StartError: Error {
        public let message: String
    }

    /// What the launcher prints: its port and the access key of the IAM user it made.
    private struct Announcement: Decodable {
        let port: Int
        let accessKey: String
        let secretKey: String
    }

    public let port: Int
    public let accessKey: String
    public let secretKey: String
    /// The server exits when its stdin closes, so it cannot outlive the test process either.
    private let process: SpawnedProcess

    public init() async throws {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("moto_server.py")
        self.process = try SpawnedProcess(["python3", script.path], stdin: .pipe, stdout: .pipe)
        // The process was started with a pipe for each.
        guard let output = self.process.output else { throw StartError(message: "the server has no stdout") }
        // Read on a thread of its own: Python takes seconds to start on a loaded machine, too long to hold one of the few
        // threads every test's async work shares.
        var lines = output.readLines().makeAsyncIterator()
        guard let line = await lines.next() else {
            throw StartError(message: "moto_server.py exited before announcing its port; run deploy/local/install-deps.sh for moto[server]")
        }
        let announcement = try JSONDecoder().decode(Announcement.self, from: Data(line.utf8))
        self.port = announcement.port
        self.accessKey = announcement.accessKey
        self.secretKey = announcement.secretKey
    }

    public var endpoint: String {
        "http://127.0.0.1:\(self.port)"
    }

    /// A configuration for `bucket` with the server's credentials.
    public func configuration(bucket: String = "kiln-test") -> S3Configuration {
        S3Configuration(endpoint: self.endpoint, bucket: bucket, accessKey: self.accessKey, secretKey: self.secretKey)
    }

    /// Closes the server's stdin, which ends it at once.
    public func stop() {
        try? self.process.input?.close()
    }
}

/// Runs `body` with a fresh moto server, an HTTP client and an S3 client whose bucket exists, and stops them afterwards.
public func withMoto(_ body: (MotoServer, HTTPClient, S3ObjectClient) async throws -> Void) async throws {
    let server = try await MotoServer()
    defer { server.stop() }
    let http = try HTTPClient()
    defer { http.shutdown() }
    let client = S3ObjectClient(configuration: server.configuration(), http: http)
    try await client.createBucket()
    try await body(server, http, client)
}
