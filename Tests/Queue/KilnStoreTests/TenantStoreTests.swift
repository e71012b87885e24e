import Foundation
import KilnCore
import KilnStore
import PostgresClient
import Testing

@Suite struct TenantStoreTests {
    @Test func createFindAndList() async throws {
        try await TestDatabase.withSchema { pool in
            let store = TenantStore(pool: pool)
            let acme = try #require(TenantID(validating: "acme"))
            let beta = try #require(TenantID(validating: "beta-2"))
            let created = try await store.create(id: acme, name: "Acme Stories", weight: 3, runningCap: 4, diagnostics: true)
            #expect(created.id == acme && created.name == "Acme Stories" && created.weight == 3 && created.runningCap == 4 && created.diagnostics)
            _ = try await store.create(id: beta, name: "Beta")
            #expect(try await store.find(id: acme) == created)
            #expect(try await store.find(id: #require(TenantID(validating: "nobody"))) == nil)
            let listed = try await store.list()
            #expect(listed.map(\.id) == [acme, beta])
            #expect(listed[1].weight == 1 && listed[1].runningCap == 8 && !listed[1].diagnostics)

            let duplicate = try await #require(throws: StoreError.self) { try await store.create(id: acme, name: "Again") }
            #expect(duplicate.code == .alreadyExists)
            let badWeight = try await #require(throws: StoreError.self) { try await store.create(id: beta, name: "B", weight: 0) }
            #expect(badWeight.code == .invalidArgument)
        }
    }
}

@Suite struct APIKeyStoreTests {
    @Test func createAuthenticateAndRevoke() async throws {
        try await TestDatabase.withSchema { pool in
            let tenants = TenantStore(pool: pool)
            let keys = APIKeyStore(pool: pool)
            let acme = try #require(TenantID(validating: "acme"))
            let tenant = try await tenants.create(id: acme, name: "Acme")

            let (record, key) = try await keys.create(tenant: acme)
            #expect(key.hasPrefix("kiln_"))
            #expect(record.prefix == APIKey.displayPrefix(key))
            #expect(record.revokedAt == nil)
            #expect(try await keys.authenticate(key: key) == tenant)
            #expect(try await keys.authenticate(key: key + "x") == nil)

            // Only the hash is stored: the plaintext appears in no column.
            let stored = try await pool.query("SELECT k::text AS row, key_hash FROM api_keys k")
            #expect(stored.count == 1)
            #expect(try !stored[0].decode("row", as: String.self).contains(key))
            #expect(try !stored[0].decode("row", as: String.self).contains(String(key.dropFirst(5))))
            #expect(try stored[0].decode("key_hash", as: String.self) == APIKey.hash(key))

            let (second, secondKey) = try await keys.create(tenant: acme)
            #expect(try await keys.list(tenant: acme).map(\.id) == [record.id, second.id])

            let revoked = try #require(try await keys.revoke(record.prefix))
            #expect(revoked.id == record.id && revoked.revokedAt != nil)
            #expect(try await keys.authenticate(key: key) == nil)
            #expect(try await keys.authenticate(key: secondKey) == tenant)
            #expect(try await keys.revoke(record.prefix) == nil)

            #expect(try await keys.revoke(second.id.uuidString)?.id == second.id)
            #expect(try await keys.authenticate(key: secondKey) == nil)
            #expect(try await keys.list(tenant: acme).allSatisfy { $0.revokedAt != nil })

            let unknown = try await #require(throws: StoreError.self) { try await keys.create(tenant: #require(TenantID(validating: "nobody"))) }
            #expect(unknown.code == .notFound)
        }
    }

    @Test func ambiguousPrefixIsRefused() async throws {
        try await TestDatabase.withSchema { pool in
            let acme = try #require(TenantID(validating: "acme"))
            _ = try await TenantStore(pool: pool).create(id: acme, name: "Acme")
            let keys = APIKeyStore(pool: pool)
            let (first, _) = try await keys.create(tenant: acme)
            let (second, _) = try await keys.create(tenant: acme)
            // Prefixes rarely collide; force one to show what revoking by an ambiguous prefix does.
            try await pool.execute("UPDATE api_keys SET prefix = $1 WHERE id = $2", [first.prefix, second.id])
            let error = try await #require(throws: StoreError.self) { try await keys.revoke(first.prefix) }
            #expect(error.code == .ambiguous)
            #expect(try await keys.list(tenant: acme).allSatisfy { $0.revokedAt == nil })
        }
    }
}
