import Foundation
import KilnAPI
import KilnCore
import KilnStore

/// API keys in memory: each key names its tenant.
struct MemoryTenantKeys: TenantKeys {
    let tenants: [String: Tenant]

    func authenticate(key: String) async throws -> Tenant? { tenants[key] }
}

/// A PostgreSQL that holds no finished job and no artifact yet.
struct EmptyRecords: JobRecords, ArtifactCatalog {
    func find(id: JobID, tenant: TenantID) async throws -> JobRecord? { nil }
    func list(job: JobID, tenant: TenantID) async throws -> [Artifact] { [] }
    func find(job: JobID, tenant: TenantID, name: String) async throws -> Artifact? { nil }
    /// Never asked: there is no artifact to stream.
    func chunks(of artifact: Artifact) async throws -> ObjectChunks { throw NoArtifacts() }

    struct NoArtifacts: Error {}
}
