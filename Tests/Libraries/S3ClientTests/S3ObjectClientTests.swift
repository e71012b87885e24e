import CurlClient
import Foundation
import S3Client
import S3Fixtures
import Testing

@Suite("S3ObjectClient against moto with signature checks")
struct S3ObjectClientTests {
    @Test(
        "put then get returns the same bytes",
        arguments: [
            ("small", Array("hello, object store".utf8)),
            ("binary with NULs", [0, 1, 0, 255, 0, 0, 128, 10, 13, 0]),
            ("empty", []),
        ] as [(String, [UInt8])])
    func roundTrip(name: String, bytes: [UInt8]) async throws {
        try await withMoto { _, _, client in
            try await client.put(key: "objects/\(name)", bytes: bytes)
            #expect(try await client.get(key: "objects/\(name)") == bytes)
        }
    }

    /// Over 1 MiB, libcurl sends `Expect: 100-continue` of its own accord and does not sign it; the client's bare
    /// `Expect:` suppression would have been signed and broken the signature.
    @Test("a body over 1 MiB round-trips")
    func largeBody() async throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<(2 * 1024 * 1024 + 123)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        try await withMoto { _, _, client in
            try await client.put(key: "large.bin", bytes: bytes, contentType: "application/octet-stream")
            let fetched = try #require(try await client.get(key: "large.bin"))
            #expect(fetched.count == bytes.count)
            #expect(fetched == bytes)
        }
    }

    @Test("get of a missing key is nil; delete then get is nil; deleting a missing key succeeds")
    func missingAndDeleted() async throws {
        try await withMoto { _, _, client in
            #expect(try await client.get(key: "never/written") == nil)
            try await client.put(key: "doomed.txt", bytes: Array("bye".utf8), contentType: "text/plain")
            #expect(try await client.get(key: "doomed.txt") == Array("bye".utf8))
            try await client.delete(key: "doomed.txt")
            #expect(try await client.get(key: "doomed.txt") == nil)
            try await client.delete(key: "doomed.txt")
        }
    }

    @Test(
        "keys with spaces, unicode and reserved characters round-trip",
        arguments: [
            "with space.txt", "dir/sub dir/ünïcødé ✓.png", "日本語/ファイル", "plus+equals=amp&at@!*'()~.txt", "percent%41 literal",
            "emoji 🎞️/frame 001.jpg",
        ]
    )
    func keyEncoding(key: String) async throws {
        try await withMoto { _, _, client in
            let bytes = Array("content of \(key)".utf8)
            try await client.put(key: key, bytes: bytes)
            #expect(try await client.get(key: key) == bytes)
            // A key that differs only in what percent-encoding would blur is another object.
            #expect(try await client.get(key: key + " ") == nil)
            try await client.delete(key: key)
            #expect(try await client.get(key: key) == nil)
        }
    }

    /// Keys with characters that need encoding in the query's prefix, and more keys than one page holds (a page is
    /// at most 1,000 keys; moto honours `max-keys` only through the default, so 1,005 keys take two pages).
    @Test("list finds every key under a prefix, across pages, and nothing else")
    func listUnderAPrefix() async throws {
        try await withMoto { _, _, client in
            let prefix = "tenants/acme jobs/ü+=/"
            var keys: [String] = []
            for index in 0..<1005 { keys.append("\(prefix)\(index)/echo.txt") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for key in keys { group.addTask { try await client.put(key: key, bytes: [1]) } }
                try await group.waitForAll()
            }
            try await client.put(key: "tenants/acme jobs/other", bytes: [2])
            #expect(Set(try await client.list(prefix: prefix)) == Set(keys))
            #expect(try await client.list(prefix: "nothing/").isEmpty)
            #expect(try await client.list(prefix: "").count == 1006)
        }
    }

    @Test("a wrong secret key is refused with 403 SignatureDoesNotMatch, and the secret is not in the error")
    func wrongSecret() async throws {
        try await withMoto { server, http, client in
            try await client.put(key: "guarded.txt", bytes: Array("secret stuff".utf8))
            var configuration = server.configuration()
            configuration.secretKey = "wrong-secret-\(UUID().uuidString)"
            let impostor = S3ObjectClient(configuration: configuration, http: http)
            for operation in ["get", "put", "delete"] {
                let error = try await #require(throws: S3Error.self, "\(operation)") {
                    switch operation {
                    case "get": _ = try await impostor.get(key: "guarded.txt")
                    case "put": try await impostor.put(key: "guarded.txt", bytes: Array("overwritten".utf8))
                    default: try await impostor.delete(key: "guarded.txt")
                    }
                }
                #expect(error.status == 403)
                #expect(error.code == "SignatureDoesNotMatch")
                #expect(!String(describing: error).contains(configuration.secretKey))
                #expect(!String(reflecting: error).contains(configuration.secretKey))
            }
            // The refused writes changed nothing.
            #expect(try await client.get(key: "guarded.txt") == Array("secret stuff".utf8))
        }
    }

    @Test("an access key moto does not know is refused with 403 InvalidAccessKeyId")
    func unknownAccessKey() async throws {
        try await withMoto { server, http, _ in
            var configuration = server.configuration()
            configuration.accessKey = "AKIAKILNUNKNOWN00000"
            let stranger = S3ObjectClient(configuration: configuration, http: http)
            let error = try await #require(throws: S3Error.self) { _ = try await stranger.get(key: "anything") }
            #expect(error.status == 403)
            #expect(error.code == "InvalidAccessKeyId")
        }
    }

    @Test("a missing bucket is an error, not a missing object")
    func missingBucket() async throws {
        try await withMoto { server, http, _ in
            let elsewhere = S3ObjectClient(configuration: server.configuration(bucket: "no-such-bucket"), http: http)
            let error = try await #require(throws: S3Error.self) { _ = try await elsewhere.get(key: "anything") }
            #expect(error.status == 404)
            #expect(error.code == "NoSuchBucket")
        }
    }

    @Test("creating a bucket twice succeeds")
    func createBucketTwice() async throws {
        try await withMoto { _, _, client in
            try await client.createBucket()
        }
    }

    @Test("the configuration's and the signature's descriptions hide the secret and the token")
    func descriptionsHideSecrets() {
        let configuration = S3Configuration(
            endpoint: "http://127.0.0.1:9000", bucket: "b", accessKey: "AKIAEXAMPLE", secretKey: "s3cr3t-value", sessionToken: "t0ken-value"
        )
        let signature = AWSSignature(region: "us-east-1", service: "s3", accessKey: "AKIAEXAMPLE", secretKey: "s3cr3t-value")
        let request = HTTPRequest(url: "http://127.0.0.1:9000/b/k", awsSigV4: signature)
        var dumped = ""
        dump(configuration, to: &dumped)
        dump(request, to: &dumped)
        let texts = [
            String(describing: configuration), String(reflecting: configuration), String(describing: request), String(reflecting: request), dumped,
        ]
        for text in texts {
            #expect(!text.contains("s3cr3t-value"))
            #expect(!text.contains("t0ken-value"))
        }
        #expect(String(describing: configuration).contains("AKIAEXAMPLE"))
    }
}
