import CurlClient
import Foundation
import KilnAPI
import KilnCore
import KilnJSON
import KilnStore
import S3Client
import S3Fixtures
import Locking
import Testing

/// Bytes in and out: uploads, and artifacts served to their job's owner only.
@Suite struct ArtifactAndUploadTests {
    @Test func anArtifactIsServedToItsOwnerOnly() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            let rival = try await harness.tenant("rival")
            try await harness.startAPI()
            harness.startWorker()
            let text = "Once upon a time — «héllo» 👋"
            let id = try await harness.submit(#"{"kind":"diag.echo","input":{"artifact":"\#(text)"}}"#, as: client)
            let job = try await harness.awaitFinished(id, as: client)
            guard case .array(let artifacts)? = job["artifacts"], let first = artifacts.first else { throw TestFailure("no artifacts: \(job)") }
            #expect(first["name"]?.stringValue == "echo.txt")
            #expect(first["sha256"]?.stringValue == Digest.sha256Hex(text))
            let path = "/v1/jobs/\(id)/artifacts/echo.txt"
            let own = try await harness.send(try harness.request("GET", path, as: client))
            #expect(own.status == 200)
            #expect(String(decoding: own.response.body, as: UTF8.self) == text)
            #expect(own.response.header("Content-Type")?.hasPrefix("text/plain") == true)
            #expect(try await harness.send(try harness.request("GET", path, as: client, identity: "someone-else")).status == 404)
            #expect(try await harness.send(try harness.request("GET", path, as: rival)).status == 404)
            #expect(try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/artifacts/missing.txt", as: client)).status == 404)
        }
    }

    /// With S3 configured, the worker's artifact and an upload go to the bucket (moto, signatures checked), under the
    /// same paths as on disk, and the API serves the artifact from there; nothing lands in the local directory.
    @Test func artifactsAndUploadsLiveInS3WhenConfigured() async throws {
        try await withMoto { _, _, s3 in
            try await Harness.with { harness in
                harness.objectBackend.withLock { $0 = S3ObjectStore(client: s3) }
                let client = try await harness.tenant("acme")
                try await harness.startAPI()
                harness.startWorker()
                let text = "Stored in a bucket — «héllo» 👋"
                let id = try await harness.submit(#"{"kind":"diag.echo","input":{"artifact":"\#(text)"}}"#, as: client)
                let job = try await harness.awaitFinished(id, as: client)
                #expect(job["status"]?.stringValue == "succeeded")
                let attempt = try #require(job["attempt"]?.numberValue.map(Int.init))
                let served = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/artifacts/echo.txt", as: client))
                #expect(served.status == 200)
                #expect(String(decoding: served.response.body, as: UTF8.self) == text)
                #expect(try await s3.get(key: "tenants/acme/jobs/\(id)/\(attempt)/echo.txt") == Array(text.utf8))

                let bytes = (0..<3000).map { UInt8($0 % 251) }
                let upload = HTTPRequest(
                    method: "POST", url: try harness.apiURL + "/v1/uploads",
                    headers: ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": "image/png"], body: bytes)
                let stored = try await harness.send(upload)
                #expect(stored.status == 201)
                let uploadID = try #require(stored.json?["id"]?.stringValue)
                #expect(try await s3.get(key: "tenants/acme/uploads/\(uploadID)") == bytes)
                #expect(!FileManager.default.fileExists(atPath: harness.objects.root.appendingPathComponent("tenants").path))
            }
        }
    }

    @Test func uploadsAreStoredAndLimited() async throws {
        try await Harness.with { harness in
            let client = try await harness.tenant("acme")
            try await harness.startAPI { $0.maxUploadBytes = 4096 }
            let bytes = (0..<3000).map { UInt8($0 % 251) }
            var upload = try harness.request("POST", "/v1/uploads", as: client, headers: [("Content-Type", "image/png")])
            upload.body = bytes
            upload.headers = ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": "image/png"]
            let stored = try await harness.send(upload)
            #expect(stored.status == 201)
            #expect(stored.json?["size"]?.numberValue == 3000)
            #expect(stored.json?["sha256"]?.stringValue == Digest.sha256Hex(Data(bytes)))
            upload.body = [UInt8](repeating: 1, count: 5000)
            let tooLarge = try await harness.send(upload)
            #expect(tooLarge.status == 413)
            #expect(tooLarge.json?["code"]?.stringValue == "body_too_large")

            upload.body = bytes
            for odd in ["../../etc/passwd", "image", "image/png/x", String(repeating: "a", count: 300) + "/png"] {
                upload.headers = ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": odd]
                #expect(try await harness.send(upload).json?["code"]?.stringValue == "invalid_content_type", "\(odd)")
            }
            upload.headers = ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": "text/plain; charset=utf-8"]
            #expect(try await harness.send(upload).status == 201)
        }
    }
}
