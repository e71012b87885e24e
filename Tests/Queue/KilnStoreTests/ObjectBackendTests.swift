import CurlClient
import Foundation
import KilnCore
import KilnStore
import S3Client
import S3Fixtures
import Testing

/// The same behaviour from both backends: the local directory, and S3 through moto with every signature checked.
@Suite("ObjectBackend: the local directory and S3 (moto)")
struct ObjectBackendTests {
    enum Backend: String, CaseIterable, CustomTestStringConvertible {
        case directory, s3
        var testDescription: String { rawValue }
    }

    /// Runs `body` with a fresh, empty store of `backend`'s kind.
    static func with(_ backend: Backend, _ body: (any ObjectBackend) async throws -> Void) async throws {
        switch backend {
        case .directory:
            try await TestDatabase.withTemporaryDirectory { root in try await body(ObjectStore(root: root)) }
        case .s3:
            try await withMoto { _, _, client in try await body(S3ObjectStore(client: client)) }
        }
    }

    @Test(arguments: Backend.allCases)
    func writeReadOverwriteDelete(backend: Backend) async throws {
        try await Self.with(backend) { store in
            let path = "tenants/acme/jobs/j1/1/story.txt"
            let bytes = Array("Once upon a time — «héllo» 👋\u{0}".utf8)
            let (size, sha256) = try await store.write(bytes, to: path)
            #expect(size == bytes.count)
            #expect(sha256 == Digest.sha256Hex(bytes))
            #expect(try await store.read(path) == bytes)
            let replacement = Array("the end".utf8)
            _ = try await store.write(replacement, to: path)
            #expect(try await store.read(path) == replacement)
            try await store.delete(path)
            let missing = try await #require(throws: StoreError.self) { try await store.read(path) }
            #expect(missing.code == .notFound)
            // Deleting what is not there is not an error.
            try await store.delete(path)
        }
    }

    /// What erasure and the purge rely on: every attempt's objects of a job are listed, and nothing of a neighbour
    /// whose name starts the same; in the local directory, deleting a job's last object takes its directories along
    /// (no directory named after an erased job stays) and leaves the shared ones.
    @Test(arguments: Backend.allCases)
    func listUnderADirectoryAndDeleteEverything(backend: Backend) async throws {
        try await Self.with(backend) { store in
            let job = ["tenants/acme/jobs/j1/1/echo.txt", "tenants/acme/jobs/j1/2/echo.txt", "tenants/acme/jobs/j1/2/cover.png"]
            for path in job + ["tenants/acme/jobs/j10/1/echo.txt", "tenants/acme/uploads/u1"] { _ = try await store.write([1], to: path) }
            #expect(Set(try await store.list(under: "tenants/acme/jobs/j1")) == Set(job))
            #expect(try await store.list(under: "tenants/acme/jobs/none").isEmpty)
            for path in job { try await store.delete(path) }
            #expect(try await store.list(under: "tenants/acme/jobs/j1").isEmpty)
            #expect(try await store.list(under: "tenants/acme/jobs/j10") == ["tenants/acme/jobs/j10/1/echo.txt"])
            await #expect(throws: StoreError.self) { try await store.list(under: "tenants/../acme") }
            if let local = store as? ObjectStore {
                #expect(!FileManager.default.fileExists(atPath: try local.fileURL(for: "tenants/acme/jobs/j1").path))
                try await store.delete("tenants/acme/uploads/u1")
                #expect(FileManager.default.fileExists(atPath: try local.fileURL(for: "tenants/acme/uploads").path))
            }
        }
    }

    @Test(arguments: Backend.allCases)
    func missingObjectIsNotFound(backend: Backend) async throws {
        try await Self.with(backend) { store in
            let error = try await #require(throws: StoreError.self) { try await store.read("tenants/acme/uploads/never-written") }
            #expect(error.code == .notFound)
            // Before any piece: an answer that streams the object has not started when it learns there is none.
            let streamed = try await #require(throws: StoreError.self) { try await store.chunks(of: "tenants/acme/uploads/never-written") }
            #expect(streamed.code == .notFound)
        }
    }

    @Test(arguments: Backend.allCases)
    func emptyAndLargeObjects(backend: Backend) async throws {
        var generator = SystemRandomNumberGenerator()
        let large = (0..<(3 * 1024 * 1024 + 17)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try await Self.with(backend) { store in
            _ = try await store.write([], to: "tenants/acme/uploads/empty")
            #expect(try await store.read("tenants/acme/uploads/empty") == [])
            let (size, sha256) = try await store.write(large, to: "tenants/acme/jobs/j2/1/video.mp4")
            #expect(size == large.count)
            #expect(sha256 == Digest.sha256Hex(large))
            let read = try await store.read("tenants/acme/jobs/j2/1/video.mp4")
            #expect(read.count == large.count)
            #expect(read == large)
            var streamed: [UInt8] = []
            var pieces = 0
            for try await piece in try await store.chunks(of: "tenants/acme/jobs/j2/1/video.mp4") {
                streamed += piece
                pieces += 1
            }
            #expect(streamed == large)
            // The local store reads 256 KiB at a time; S3's client reads a body whole.
            #expect(pieces == (backend == .directory ? 13 : 1))
        }
    }

    /// Both backends take the same paths, so an object can move from one to the other under its name.
    @Test(arguments: Backend.allCases)
    func rejectsUnsafePaths(backend: Backend) async throws {
        try await Self.with(backend) { store in
            for path in ["../x", "a/../../x", "/etc/passwd", "", "a//b", "a/", "./a", ".hidden", "a/.b", "..", "a\u{0}b"] {
                for call in ["write", "read", "delete"] {
                    let error = try await #require(throws: StoreError.self, "\(call) \(path)") {
                        switch call {
                        case "write": _ = try await store.write([1], to: path)
                        case "read": _ = try await store.read(path)
                        default: try await store.delete(path)
                        }
                    }
                    #expect(error.code == .invalidPath)
                }
            }
        }
    }
}

@Suite("S3ObjectStore against moto with signature checks")
struct S3ObjectStoreTests {
    @Test("an object's key in the bucket is its path")
    func keysArePaths() async throws {
        try await withMoto { _, _, client in
            let store = S3ObjectStore(client: client)
            let path = "tenants/acme/uploads/0b7c0f5e-8a3f-4f8e-9a55-6f1f1c1d2e3f"
            _ = try await store.write(Array("png bytes".utf8), to: path)
            #expect(try await client.get(key: path) == Array("png bytes".utf8))
            try await client.put(key: "tenants/acme/jobs/j/1/cover.png", bytes: [1, 2, 3])
            #expect(try await store.read("tenants/acme/jobs/j/1/cover.png") == [1, 2, 3])
        }
    }

    @Test("S3's refusals are i/o errors naming the status and code, without the secret; a missing bucket is not a missing object")
    func refusals() async throws {
        try await withMoto { server, http, client in
            _ = try await S3ObjectStore(client: client).write([7], to: "tenants/acme/uploads/kept")
            var wrong = server.configuration()
            wrong.secretKey = "wrong-secret-\(UUID().uuidString)"
            let impostor = S3ObjectStore(configuration: wrong, http: http)
            let refused = try await #require(throws: StoreError.self) { try await impostor.read("tenants/acme/uploads/kept") }
            #expect(refused.code == .io)
            #expect(!refused.isUnavailable)
            #expect(refused.message.contains("403"))
            #expect(refused.message.contains("SignatureDoesNotMatch"))
            #expect(!String(describing: refused).contains(wrong.secretKey))
            await #expect(throws: StoreError.self) { _ = try await impostor.write([8], to: "tenants/acme/uploads/kept") }
            #expect(try await client.get(key: "tenants/acme/uploads/kept") == [7])

            let elsewhere = S3ObjectStore(configuration: server.configuration(bucket: "no-such-bucket"), http: http)
            let noBucket = try await #require(throws: StoreError.self) { try await elsewhere.read("tenants/acme/uploads/kept") }
            #expect(noBucket.code == .io)
            #expect(noBucket.message.contains("NoSuchBucket"))
        }
    }

    @Test("an unreachable server is unavailable, not a refusal")
    func unreachable() async throws {
        let http = try HTTPClient(configuration: HTTPClientConfiguration(connectTimeout: .seconds(2), totalTimeout: .seconds(5)))
        defer { http.shutdown() }
        // Port 1 on loopback: nothing listens there, so the connection is refused at once.
        let configuration = S3Configuration(endpoint: "http://127.0.0.1:1", bucket: "kiln", accessKey: "AKIAEXAMPLE", secretKey: "secret")
        let error = try await #require(throws: StoreError.self) { try await S3ObjectStore(configuration: configuration, http: http).read("a/b") }
        #expect(error.code == .unavailable)
        #expect(error.isUnavailable)
    }
}
