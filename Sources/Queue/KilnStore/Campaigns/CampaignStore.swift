public import Foundation
public import KilnCore
public import PostgresClient

/// WorldArchitect's campaigns in PostgreSQL (`campaigns`, `campaign_scenes`): each owned by one identity of one
/// tenant, its history written scene by scene from the `campaign.open` and `campaign.turn` jobs it runs, one at a time.
/// JSON (the settings, the state, a planning block) is kept and returned as text: the API decodes it into
/// WorldArchitect's types.
public struct CampaignStore: Sendable {
    private let pool: PostgresPool

    public init(pool: PostgresPool) {
        self.pool = pool
    }

    private static let columns = """
        id, tenant_id, identity, title, settings, state, scene_count, pending_job, pending_action, last_error, created_at, updated_at
        """

    /// A new campaign whose opening job (`campaign.open`) is `job`, without scenes until it is applied; the campaign
    /// takes the job's id, so a retried creation (the job replayed by its idempotency key) finds it again.
    /// - Returns: the campaign; nil when the id is another identity's.
    public func create(
        _ job: JobID, tenant: TenantID, identity: Identity, title: String, settings: String
    ) async throws
        -> StoredCampaign?
    {
        let id = CampaignID(lowercaseUUID: job.rawValue)
        _ = try await pool.execute(
            """
            INSERT INTO campaigns (id, tenant_id, identity, title, settings, pending_job) VALUES ($1, $2, $3, $4, $5::jsonb, $1)
            ON CONFLICT (id) DO NOTHING
            """,
            [id.rawValue, tenant.rawValue, identity.rawValue, title, settings])
        return try await find(id, tenant: tenant, identity: identity)
    }

    /// The identity's campaign; nil when there is none of this id (or it is someone else's).
    public func find(_ id: CampaignID, tenant: TenantID, identity: Identity) async throws -> StoredCampaign? {
        try await pool.query(
            "SELECT \(Self.columns) FROM campaigns WHERE id = $1 AND tenant_id = $2 AND identity = $3",
            [id.rawValue, tenant.rawValue, identity.rawValue]
        ).first.map(StoredCampaign.init)
    }

    /// The identity's campaigns, the latest played first, `limit` of them after `cursor` (the last of a previous page).
    public func list(tenant: TenantID, identity: Identity, after cursor: CampaignCursor?, limit: Int) async throws -> [StoredCampaign] {
        let rows: PostgresRows
        if let cursor {
            rows = try await pool.query(
                """
                SELECT \(Self.columns) FROM campaigns WHERE tenant_id = $1 AND identity = $2 AND (updated_at, id) < ($3, $4::uuid)
                ORDER BY updated_at DESC, id DESC LIMIT $5
                """,
                [tenant.rawValue, identity.rawValue, cursor.updatedAt, cursor.id.rawValue, limit])
        } else {
            rows = try await pool.query(
                """
                SELECT \(Self.columns) FROM campaigns WHERE tenant_id = $1 AND identity = $2
                ORDER BY updated_at DESC, id DESC LIMIT $3
                """,
                [tenant.rawValue, identity.rawValue, limit])
        }
        return try rows.map(StoredCampaign.init)
    }

    /// The campaign's scenes from number `first` on, at most `limit`, oldest first.
    public func scenes(of id: CampaignID, from first: Int, limit: Int) async throws -> [StoredScene] {
        try await pool.query(
            """
            SELECT number, action, title, narrative, planning_block, job_id, created_at FROM campaign_scenes
            WHERE campaign_id = $1 AND number >= $2 ORDER BY number LIMIT $3
            """,
            [id.rawValue, first, limit]
        ).map(StoredScene.init)
    }

    /// Renames the campaign or replaces its settings (not its history); nil when it is not the identity's.
    public func update(
        _ id: CampaignID, tenant: TenantID, identity: Identity, title: String?, settings: String?
    ) async throws
        -> StoredCampaign?
    {
        try await pool.query(
            """
            UPDATE campaigns SET title = coalesce($4, title), settings = coalesce($5::jsonb, settings), updated_at = now()
            WHERE id = $1 AND tenant_id = $2 AND identity = $3 RETURNING \(Self.columns)
            """,
            [id.rawValue, tenant.rawValue, identity.rawValue, title, settings]
        ).first.map(StoredCampaign.init)
    }

    /// Makes `job` the campaign's turn for `action`, if the campaign has no job in flight and is still at scene
    /// `sceneCount` (the one the turn was written from).
    /// - Returns: whether the turn is now the campaign's.
    public func beginTurn(_ id: CampaignID, job: JobID, action: String, atScene sceneCount: Int) async throws -> Bool {
        try await pool.execute(
            """
            UPDATE campaigns SET pending_job = $2, pending_action = $3, last_error = NULL, updated_at = now()
            WHERE id = $1 AND pending_job IS NULL AND scene_count = $4 AND state IS NOT NULL
            """,
            [id.rawValue, job.rawValue, action, sceneCount]) == 1
    }

    /// Applies the finished `job`'s scene and the state after it, if `job` is still the campaign's pending one: the
    /// scene, the state and the end of the job's turn are one transaction, so a scene is applied once whoever applies it.
    /// - Returns: whether this call applied it.
    public func apply(_ scene: NewScene, state: String, to id: CampaignID, job: JobID) async throws -> Bool {
        try await pool.withTransaction { connection in
            let turn = try await connection.query(
                "SELECT pending_action FROM campaigns WHERE id = $1 AND pending_job = $2 FOR UPDATE", [id.rawValue, job.rawValue])
            guard let row = turn.first else { return false }
            let action = try row.decode("pending_action", as: String?.self)
            _ = try await connection.execute(
                """
                UPDATE campaigns SET state = $2::jsonb, scene_count = $3, pending_job = NULL, pending_action = NULL, updated_at = now()
                WHERE id = $1
                """,
                [id.rawValue, state, scene.number])
            _ = try await connection.execute(
                """
                INSERT INTO campaign_scenes (campaign_id, number, action, title, narrative, planning_block, job_id)
                VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)
                """,
                [id.rawValue, scene.number, action, scene.title, scene.narrative, scene.planningBlock, job.rawValue])
            return true
        }
    }

    /// Ends the failed `job`'s turn without a scene, keeping why, if it is still the campaign's pending one.
    public func fail(_ id: CampaignID, job: JobID, reason: String) async throws {
        _ = try await pool.execute(
            "UPDATE campaigns SET pending_job = NULL, pending_action = NULL, last_error = $3, updated_at = now() WHERE id = $1 AND pending_job = $2",
            [id.rawValue, job.rawValue, reason])
    }
}

/// Where a page of ``CampaignStore/list(tenant:identity:after:limit:)`` ended.
public struct CampaignCursor: Sendable, Equatable {
    public let updatedAt: Date
    public let id: CampaignID

    public init(updatedAt: Date, id: CampaignID) {
        self.updatedAt = updatedAt
        self.id = id
    }
}

/// A campaign's row.
public struct StoredCampaign: Sendable, Equatable {
    public let id: CampaignID
    public let tenant: TenantID
    public let identity: Identity
    public let title: String
    /// JSON text: `{"setting", "character", "style"}` and the player's own settings.
    public let settings: String
    /// JSON text of the game state after the latest scene; nil until the opening scene is applied.
    public let state: String?
    public let sceneCount: Int
    /// The opening or turn job in flight, whose scene is not applied yet.
    public let pendingJob: JobID?
    public let pendingAction: String?
    public let lastError: String?
    public let createdAt: Date
    public let updatedAt: Date

    public init(
        id: CampaignID, tenant: TenantID, identity: Identity, title: String, settings: String, state: String?, sceneCount: Int,
        pendingJob: JobID?, pendingAction: String?, lastError: String?, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.tenant = tenant
        self.identity = identity
        self.title = title
        self.settings = settings
        self.state = state
        self.sceneCount = sceneCount
        self.pendingJob = pendingJob
        self.pendingAction = pendingAction
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    init(_ row: PostgresRow) throws {
        guard let id = CampaignID(validating: try row.decode("id", as: String.self)),
            let tenant = TenantID(validating: try row.decode("tenant_id", as: String.self)),
            let identity = Identity(validating: try row.decode("identity", as: String.self))
        else { throw StoreError(.invalidRecord, "a campaign row has an invalid id, tenant or identity") }
        self.id = id
        self.tenant = tenant
        self.identity = identity
        title = try row.decode("title", as: String.self)
        settings = try row.decode("settings", as: String.self)
        state = try row.decode("state", as: String?.self)
        sceneCount = try row.decode("scene_count", as: Int.self)
        pendingJob = try row.decode("pending_job", as: String?.self).flatMap(JobID.init(validating:))
        pendingAction = try row.decode("pending_action", as: String?.self)
        lastError = try row.decode("last_error", as: String?.self)
        createdAt = try row.decode("created_at", as: Date.self)
        updatedAt = try row.decode("updated_at", as: Date.self)
    }

    /// Where a page of campaigns ending with this one ended.
    public var cursor: CampaignCursor { CampaignCursor(updatedAt: updatedAt, id: id) }
}

/// A scene of a campaign's history ("Scene #3").
public struct StoredScene: Sendable, Equatable {
    public let number: Int
    /// What the player did to get here; nil for the opening scene.
    public let action: String?
    public let title: String?
    public let narrative: String
    /// JSON text: `{"choices": […]}`, what the player may do next.
    public let planningBlock: String
    public let job: JobID?
    public let createdAt: Date

    public init(number: Int, action: String?, title: String?, narrative: String, planningBlock: String, job: JobID?, createdAt: Date) {
        self.number = number
        self.action = action
        self.title = title
        self.narrative = narrative
        self.planningBlock = planningBlock
        self.job = job
        self.createdAt = createdAt
    }

    init(_ row: PostgresRow) throws {
        number = try row.decode("number", as: Int.self)
        action = try row.decode("action", as: String?.self)
        title = try row.decode("title", as: String?.self)
        narrative = try row.decode("narrative", as: String.self)
        planningBlock = try row.decode("planning_block", as: String.self)
        job = JobID(validating: try row.decode("job_id", as: String.self))
        createdAt = try row.decode("created_at", as: Date.self)
    }
}

/// A scene a finished job wrote, about to be applied; its action is the one its turn began with.
public struct NewScene: Sendable {
    public let number: Int
    public let title: String?
    public let narrative: String
    public let planningBlock: String

    public init(number: Int, title: String?, narrative: String, planningBlock: String) {
        self.number = number
        self.title = title
        self.narrative = narrative
        self.planningBlock = planningBlock
    }
}
