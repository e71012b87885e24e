public import KilnCore
public import KilnStore

/// The API's reads of PostgreSQL on the job path, each the shape a route uses, so the routes run over in-memory fakes
/// in unit tests: tenants by API key, finished jobs' records, and artifacts.
public protocol TenantKeys: Sendable {
    /// The tenant whose live key this is; nil for an unknown or revoked key.
    func authenticate(key: String) async throws -> Tenant?
}

public protocol JobRecords: Sendable {
    /// A finished job's record, if it is this tenant's.
    func find(id: JobID, tenant: TenantID) async throws -> JobRecord?
}

public protocol ArtifactCatalog: Sendable {
    /// The job's artifacts, if it is this tenant's.
    func list(job: JobID, tenant: TenantID) async throws -> [Artifact]
    /// One artifact of the job by name.
    func find(job: JobID, tenant: TenantID, name: String) async throws -> Artifact?
    /// An artifact's bytes, a piece at a time.
    func chunks(of artifact: Artifact) async throws -> ObjectChunks
}

extension APIKeyStore: TenantKeys {}
extension JobStore: JobRecords {}
extension ArtifactStore: ArtifactCatalog {}
