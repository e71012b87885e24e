public import KilnCore
public import KilnStore

/// WorldArchitect's campaigns, as the campaign routes and the MCP tools use them: ``CampaignStore`` in production.
public protocol CampaignRecords: Sendable {
    func create(_ job: JobID, tenant: TenantID, identity: Identity, title: String, settings: String) async throws -> StoredCampaign?
    func find(_ id: CampaignID, tenant: TenantID, identity: Identity) async throws -> StoredCampaign?
    func list(tenant: TenantID, identity: Identity, after cursor: CampaignCursor?, limit: Int) async throws -> [StoredCampaign]
    func scenes(of id: CampaignID, from first: Int, limit: Int) async throws -> [StoredScene]
    func update(_ id: CampaignID, tenant: TenantID, identity: Identity, title: String?, settings: String?) async throws -> StoredCampaign?
    func beginTurn(_ id: CampaignID, job: JobID, action: String, atScene sceneCount: Int) async throws -> Bool
    func apply(_ scene: NewScene, state: String, to id: CampaignID, job: JobID) async throws -> Bool
    func fail(_ id: CampaignID, job: JobID, reason: String) async throws
}

extension CampaignStore: CampaignRecords {}
