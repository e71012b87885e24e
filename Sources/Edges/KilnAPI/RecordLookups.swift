public import Foundation
public import KilnCore
public import KilnPrivacy
public import KilnStore
public import KilnQueue

/// What the API reads and writes in PostgreSQL and the object store, each protocol the shape one consumer uses, so the
/// routes run over in-memory fakes in unit tests: tenants by API key, finished jobs' records, artifacts, uploads,
/// published pages, entitlements, webhook secrets and erasure. Partner links: ``PartnerLinks``.
public protocol TenantKeys: Sendable {
    /// The tenant whose live key this is; nil for an unknown or revoked key.
    func authenticate(key: String) async throws -> Tenant?
}

public protocol TenantDirectory: Sendable {
    /// The tenant of this id, if there is one.
    func find(id: TenantID) async throws -> Tenant?
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

/// `POST /v1/uploads`.
public protocol UploadRecords: Sendable {
    /// Keeps the bytes and records the upload as the identity's.
    func save(tenant: TenantID, identity: Identity, contentType: String, bytes: [UInt8]) async throws -> Upload
}

/// The web reader and the owners' revocations.
public protocol SharedPages: Sendable {
    /// The page published at `slug`.
    func page(_ slug: String) async throws -> ShareStore.Lookup<(html: String, expiresAt: Date)>
    /// One file of the page published at `slug`.
    func file(_ slug: String, name: String) async throws -> ShareStore.Lookup<(contentType: String, bytes: [UInt8])>
    /// Revokes the page, if this identity of this tenant published it; false when it did not.
    func revoke(_ slug: String, tenant: TenantID, identity: Identity) async throws -> Bool
}

/// The subscription platforms' webhooks.
public protocol EntitlementRecords: Sendable {
    /// Applies the event's entitlement unless an event of this id was applied already (false) or a newer one was.
    func apply(_ entitlement: Entitlement, eventID: String) async throws -> Bool
}

/// The secrets the subscription platforms send with their webhooks.
public protocol WebhookSecrets: Sendable {
    func authenticate(tenant: TenantID, source: Entitlement.Source, secret: String) async throws -> Bool
}

/// `DELETE /v1/identity`.
public protocol IdentityErasing: Sendable {
    /// Erases what can be erased now of the identity; the erasure says whether something is still pending.
    func erase(identity: Identity, tenant: TenantID) async throws -> Erasure
}

/// How often identities may be erased: ``ErasureLimits`` in Redis.
public protocol ErasureAdmission: Sendable {
    /// nil when an erasure of the identity may go now (it then counts against its tenant's minute); else how long
    /// until it may.
    func admit(identity: Identity, tenant: TenantID, perTenantPerMinute: Int) async throws -> Duration?
    /// Notes that the identity's erasure completed: another is refused for `quiet`.
    func completed(identity: Identity, tenant: TenantID, quiet: Duration) async throws
}

extension APIKeyStore: TenantKeys {}
extension JobStore: JobRecords {}
extension ArtifactStore: ArtifactCatalog {}
extension UploadStore: UploadRecords {}
extension ShareStore: SharedPages {}
extension TenantStore: TenantDirectory {}
extension EntitlementStore: EntitlementRecords {}
extension WebhookSecretStore: WebhookSecrets {}
extension IdentityEraser: IdentityErasing {}
extension ErasureLimits: ErasureAdmission {}
