import Foundation
import KilnCore
import KilnStore
import PostgresClient
import Testing

@Suite struct ArtifactStoreTests {
    @Test func laterAttemptWinsWhateverTheOrder() async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            try await TestDatabase.withSchema { pool in
                let objects = ObjectStore(root: root)
                let store = ArtifactStore(pool: pool, objects: objects)
                let tenant = try #require(TenantID(validating: "acme"))
                let job = JobID()
                let newer = Array("attempt two".utf8)
                let saved = try #require(
                    try await store.save(job: job, tenant: tenant, attempt: 2, name: "story.txt", contentType: "text/plain", bytes: newer)
                )
                #expect(saved.path == "tenants/acme/jobs/\(job)/2/story.txt")
                #expect(saved.sha256 == Digest.sha256Hex(newer) && saved.size == newer.count)

                let fenced = try await store.save(
                    job: job, tenant: tenant, attempt: 1, name: "story.txt", contentType: "text/html", bytes: Array("attempt one".utf8))
                #expect(fenced == nil)
                let found = try #require(try await store.find(job: job, tenant: tenant, name: "story.txt"))
                #expect(found.attempt == 2 && found.contentType == "text/plain" && found.sha256 == saved.sha256)
                #expect(try await objects.read(found.path) == newer)
                // The fenced-out attempt's bytes were not kept.
                await #expect(throws: StoreError.self) { try await objects.read("tenants/acme/jobs/\(job)/1/story.txt") }

                let third = try #require(
                    try await store.save(
                        job: job, tenant: tenant, attempt: 3, name: "story.txt", contentType: "text/plain", bytes: Array("three".utf8))
                )
                #expect(try await store.find(job: job, tenant: tenant, name: "story.txt") == third)
                _ = try await store.save(job: job, tenant: tenant, attempt: 3, name: "cover.png", contentType: "image/png", bytes: [0x89, 0x50])
                #expect(try await store.list(job: job, tenant: tenant).map(\.name) == ["cover.png", "story.txt"])

                let other = try #require(TenantID(validating: "other"))
                #expect(try await store.find(job: job, tenant: other, name: "story.txt") == nil)
                #expect(try await store.list(job: job, tenant: other).isEmpty)

                let badName = try await #require(throws: StoreError.self) {
                    try await store.save(job: job, tenant: tenant, attempt: 3, name: "../escape", contentType: "text/plain", bytes: [])
                }
                #expect(badName.code == .invalidArgument)
            }
        }
    }
}

@Suite struct UploadStoreTests {
    @Test func onlyTheOwnerFindsAnUpload() async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            try await TestDatabase.withSchema { pool in
                let tenant = try #require(TenantID(validating: "acme"))
                _ = try await TenantStore(pool: pool).create(id: tenant, name: "Acme")
                let objects = ObjectStore(root: root)
                let store = UploadStore(pool: pool, objects: objects)
                let owner = try #require(Identity(validating: "device-1"))
                let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0x00, 0x42]
                let upload = try await store.save(tenant: tenant, identity: owner, contentType: "image/jpeg", bytes: bytes)
                #expect(upload.path == "tenants/acme/uploads/\(upload.id.uuidString.lowercased())")
                #expect(upload.size == 5 && upload.sha256 == Digest.sha256Hex(bytes))
                #expect(try await store.find(id: upload.id, tenant: tenant, identity: owner) == upload)
                #expect(try await objects.read(upload.path) == bytes)
                #expect(try await store.find(id: upload.id, tenant: tenant, identity: #require(Identity(validating: "device-2"))) == nil)
                #expect(try await store.find(id: upload.id, tenant: #require(TenantID(validating: "other")), identity: owner) == nil)
            }
        }
    }

    @Test func failedInsertLeavesNoOrphanBytes() async throws {
        try await TestDatabase.withTemporaryDirectory { root in
            try await TestDatabase.withSchema { pool in
                let objects = ObjectStore(root: root)
                let store = UploadStore(pool: pool, objects: objects)
                // No such tenant: the foreign key refuses the row.
                let ghost = try #require(TenantID(validating: "ghost"))
                let identity = try #require(Identity(validating: "d"))
                await #expect(throws: PostgresError.self) {
                    try await store.save(tenant: ghost, identity: identity, contentType: "x/y", bytes: [1])
                }
                let uploads = try objects.fileURL(for: "tenants/ghost/uploads")
                #expect(try FileManager.default.contentsOfDirectory(atPath: uploads.path).isEmpty)
            }
        }
    }
}
