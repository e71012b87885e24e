import DocumentInputs
import HTTPTypes
import Foundation
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import NIOCore
import WorldArchitectInputs

/// WorldArchitect's campaigns over its jobs: a campaign opens with a `campaign.open` job and plays each turn as a
/// `campaign.turn` job written from its stored state and latest scenes, one job at a time. Whoever first finds the
/// job finished — the MCP call waiting on it, or any later read on any node — applies its scene (``settle(_:for:)``),
/// so a scene is applied once and never lost with the node that waited. The campaign routes and the MCP tools share it.
struct CampaignDesk {
    let dependencies: APIDependencies

    /// The most scenes one read returns.
    static let scenePage = 200
    /// The most campaigns a page lists.
    static let pageLimit = 100

    private var campaigns: any CampaignRecords { dependencies.campaigns }

    /// Opens a campaign: submits its `campaign.open` job (admitted like any job) and stores the campaign, which takes
    /// the job's id.
    func open(_ request: CampaignOpening, caller: Caller, idempotencyKey: String?) async throws -> (StoredCampaign, JobView) {
        let input = CampaignOpenInput(setting: request.setting, character: request.character, style: request.style)
        let job = try await submit("campaign.open", input, caller: caller, idempotencyKey: idempotencyKey)
        let settings = try AnswerEncoding.text(of: CampaignSettings(setting: request.setting, character: request.character, style: request.style))
        guard
            let campaign = try await campaigns.create(
                job.id, tenant: caller.tenant.id, identity: caller.identity, title: request.title ?? request.character.name, settings: settings)
        else { throw Problem.campaignNotFound }
        return (campaign, job)
    }

    /// The caller's campaign, with its finished job applied; another identity's is not found.
    func campaign(_ id: CampaignID, for caller: Caller) async throws -> StoredCampaign {
        guard let campaign = try await campaigns.find(id, tenant: caller.tenant.id, identity: caller.identity) else {
            throw Problem.campaignNotFound
        }
        return try await settle(campaign, for: caller)
    }

    /// A page of the caller's campaigns, the latest played first, each with its finished job applied: `limit` of them
    /// (1 to ``pageLimit``) after `cursor`, the `nextCursor` of the page before; its own `nextCursor` is nil on the last.
    /// - Throws: `invalid_input` naming `limit` or `cursor`.
    func page(for caller: Caller, cursor: String?, limit: Int) async throws -> (campaigns: [StoredCampaign], nextCursor: String?) {
        guard (1...Self.pageLimit).contains(limit) else {
            throw Problem.invalidInput(InputError(field: "limit", reason: "must be a whole number from 1 to \(Self.pageLimit)"))
        }
        let after = try cursor.map { text in
            guard let cursor = CampaignListCursor.decode(text) else {
                throw Problem.invalidInput(InputError(field: "cursor", reason: "is not a cursor this API gave"))
            }
            return cursor
        }
        var settled: [StoredCampaign] = []
        for campaign in try await campaigns.list(tenant: caller.tenant.id, identity: caller.identity, after: after, limit: limit) {
            settled.append(try await settle(campaign, for: caller))
        }
        return (settled, settled.count == limit ? settled.last.map { CampaignListCursor.encode($0.cursor) } : nil)
    }

    func scenes(of campaign: StoredCampaign, from first: Int) async throws -> [StoredScene] {
        try await campaigns.scenes(of: campaign.id, from: first, limit: Self.scenePage)
    }

    /// Renames the campaign or replaces its settings; its history and state stay.
    func update(_ id: CampaignID, title: String?, settings: JSONValue?, for caller: Caller) async throws -> StoredCampaign {
        guard
            let campaign = try await campaigns.update(
                id, tenant: caller.tenant.id, identity: caller.identity, title: title, settings: settings?.canonicalJSON())
        else { throw Problem.campaignNotFound }
        return try await settle(campaign, for: caller)
    }

    /// Plays the player's `action`: submits a `campaign.turn` job written from the campaign's state and latest scenes.
    /// - Throws: `campaign_busy` (409) while another turn is in flight, `campaign_not_ready` (409) before the opening
    ///   scene, or admission's refusal.
    func play(_ action: String, in id: CampaignID, caller: Caller, idempotencyKey: String?) async throws -> (StoredCampaign, JobView) {
        let campaign = try await campaign(id, for: caller)
        // Without an idempotency key, a turn in flight makes this one wait; with one, it may be the same turn retried.
        if campaign.pendingJob != nil, idempotencyKey == nil { throw Problem.campaignBusy }
        guard let stateText = campaign.state, let state = try? JSONValue.parse(stateText)?.decode(as: CampaignState.self) else {
            throw Problem(.conflict, "campaign_not_ready", "the campaign has no opening scene yet\(campaign.lastError.map { ": \($0)" } ?? "")")
        }
        let first = max(1, campaign.sceneCount - CampaignTurnInput.recentSceneLimit + 1)
        let recent = try await campaigns.scenes(of: id, from: first, limit: CampaignTurnInput.recentSceneLimit)
        let input = CampaignTurnInput(
            state: state, sceneNumber: campaign.sceneCount, recentScenes: recent.map { .init(number: $0.number, narrative: $0.narrative) },
            action: action)
        let job = try await submit("campaign.turn", input, caller: caller, idempotencyKey: idempotencyKey)
        // The same turn retried with its idempotency key: the same body, so the same job, already the campaign's.
        if campaign.pendingJob == job.id { return (campaign, job) }
        guard try await campaigns.beginTurn(id, job: job.id, action: action, atScene: campaign.sceneCount) else {
            // Another turn is in flight, or began in between: this one must not run on a state that is not the
            // campaign's.
            _ = try await dependencies.queue.cancel(job.id, tenant: caller.tenant.id, identity: caller.identity)
            throw Problem.campaignBusy
        }
        // Read back as it now stands; its job has only just been queued, so there is nothing to settle.
        return (try await reread(campaign, caller), job)
    }

    /// Exports the campaign's history and state as a document: submits a `document.export` job.
    func export(_ id: CampaignID, format: DocumentFormat, caller: Caller, idempotencyKey: String?) async throws -> JobView {
        let campaign = try await campaign(id, for: caller)
        let scenes = try await campaigns.scenes(of: id, from: 1, limit: CampaignSummary.maxScenes)
        guard !scenes.isEmpty else {
            throw Problem(.conflict, "campaign_not_ready", "the campaign has no scene to export yet")
        }
        let state = campaign.state.flatMap { try? JSONValue.parse($0)?.decode(as: CampaignState.self) }
        let summary = CampaignSummary(
            title: campaign.title, player: state?.character.name,
            scenes: scenes.map { .init(number: $0.number, title: $0.title, text: $0.narrative) }, state: state)
        return try await submit(
            "document.export", DocumentExportInput(format: format, campaign: summary), caller: caller, idempotencyKey: idempotencyKey)
    }

    /// Applies the campaign's pending job if it has finished: its scene and state when it succeeded, its failure
    /// otherwise. Nothing changes while it runs, or when another node applied it first.
    func settle(_ campaign: StoredCampaign, for caller: Caller) async throws -> StoredCampaign {
        guard let pending = campaign.pendingJob else { return campaign }
        let job: JobView
        do {
            job = try await JobLookup(dependencies: dependencies).find(pending, caller)
        } catch let problem as Problem where problem.code == Problem.jobNotFound.code {
            // Erased or purged with the identity's jobs: the turn is over without a scene.
            try await campaigns.fail(campaign.id, job: pending, reason: "the job is gone")
            return try await reread(campaign, caller)
        }
        switch job.state {
        case .succeeded:
            guard let scene = Self.scene(of: job) else {
                try await campaigns.fail(campaign.id, job: pending, reason: "the job's result holds no scene")
                return try await reread(campaign, caller)
            }
            _ = try await campaigns.apply(scene.scene, state: scene.state, to: campaign.id, job: pending)
        case .failed, .dead, .cancelled:
            try await campaigns.fail(campaign.id, job: pending, reason: job.errorMessage ?? "the job \(job.state.rawValue)")
        default:
            return campaign
        }
        return try await reread(campaign, caller)
    }

    private func reread(_ campaign: StoredCampaign, _ caller: Caller) async throws -> StoredCampaign {
        try await campaigns.find(campaign.id, tenant: caller.tenant.id, identity: caller.identity) ?? campaign
    }

    /// The scene and state a finished `campaign.open` or `campaign.turn` job returned.
    private static func scene(of job: JobView) -> (scene: NewScene, state: String)? {
        guard let text = job.result, let result = JSONValue.parse(text), let number = result["scene_number"]?.intValue,
            let narrative = result["narrative"]?.stringValue, let state = result["state"], let planning = result["planning_block"]
        else { return nil }
        let scene = NewScene(number: number, title: result["title"]?.stringValue, narrative: narrative, planningBlock: planning.canonicalJSON())
        return (scene, state.canonicalJSON())
    }

    private func submit(_ kind: String, _ input: some Encodable, caller: Caller, idempotencyKey: String?) async throws -> JobView {
        let body = try AnswerEncoding.bytes(of: JobBody(kind: kind, input: input))
        return try await JobSubmitter(dependencies: dependencies).submit(body: Array(buffer: body), caller: caller, idempotencyKey: idempotencyKey)
            .view
    }
}

/// What a new campaign is opened with: `campaign.open`'s input and perhaps a title (the character's name when absent).
struct CampaignOpening: Decodable {
    let title: String?
    let setting: String
    let character: CampaignOpenInput.Character
    let style: String?
}

/// A campaign's settings as stored: what it was opened with.
private struct CampaignSettings: Encodable {
    let setting: String
    let character: CampaignOpenInput.Character
    let style: String?
}

/// A `POST /v1/jobs` body.
private struct JobBody<Input: Encodable>: Encodable {
    let kind: String
    let input: Input
}

extension Problem {
    static let campaignNotFound = Problem(.notFound, "campaign_not_found", "there is no such campaign")
    static let campaignBusy = Problem(.conflict, "campaign_busy", "a turn of this campaign is still being played: wait for it")
}
