import Foundation
import KilnAPI
import KilnCore
import KilnStore
import ServiceFailures

/// Finished jobs' records and their artifacts' records, as PostgreSQL holds them. The artifacts' bytes are the object
/// store's, whose streams only KilnStore makes: downloads are tested in the integration tier.
struct MemoryRecords: JobRecords, ArtifactCatalog {
    var records: [JobRecord] = []
    var artifacts: [Artifact] = []

    func find(id: JobID, tenant: TenantID) async throws -> JobRecord? {
        records.first { $0.id == id && $0.tenant == tenant }
    }

    func list(job: JobID, tenant: TenantID) async throws -> [Artifact] {
        artifacts.filter { $0.job == job && $0.tenant == tenant }
    }

    func find(job: JobID, tenant: TenantID, name: String) async throws -> Artifact? {
        try await list(job: job, tenant: tenant).first { $0.name == name }
    }

    func chunks(of artifact: Artifact) async throws -> ObjectChunks {
        throw Unreachable(service: .objectStore)
    }
}
