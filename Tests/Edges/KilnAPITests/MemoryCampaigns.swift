import Foundation
import KilnAPI
import KilnCore
import KilnStore
import Locking

/// Campaigns in memory, with the store's rules: one identity's each, one job in flight at a time, a finished job's
/// scene applied once, the latest played listed first.
final class MemoryCampaigns: CampaignRecords {
    private struct State {
        var campaigns: [CampaignID: StoredCampaign] = [:]
        var scenes: [CampaignID: [StoredScene]] = [:]
        var clock = Date(timeIntervalSince1970: 1_790_000_000)

        mutating func tick() -> Date {
            clock += 1
            return clock
        }
    }

    private let state = Locked(State())

    func create(_ job: JobID, tenant: TenantID, identity: Identity, title: String, settings: String) async throws -> StoredCampaign? {
        let id = CampaignID(lowercaseUUID: job.rawValue)
        return state.withLock { state in
            if state.campaigns[id] == nil {
                let now = state.tick()
                state.campaigns[id] = StoredCampaign(
                    id: id, tenant: tenant, identity: identity, title: title, settings: settings, state: nil, sceneCount: 0, pendingJob: job,
                    pendingAction: nil, lastError: nil, createdAt: now, updatedAt: now)
            }
            return state.campaigns[id].flatMap { $0.tenant == tenant && $0.identity == identity ? $0 : nil }
        }
    }

    func find(_ id: CampaignID, tenant: TenantID, identity: Identity) async throws -> StoredCampaign? {
        state.withLock { $0.campaigns[id] }.flatMap { $0.tenant == tenant && $0.identity == identity ? $0 : nil }
    }

    func list(tenant: TenantID, identity: Identity, after cursor: CampaignCursor?, limit: Int) async throws -> [StoredCampaign] {
        let mine = state.withLock { $0.campaigns.values }.filter { $0.tenant == tenant && $0.identity == identity }
            .sorted { ($0.updatedAt, $0.id.rawValue) > ($1.updatedAt, $1.id.rawValue) }
        let after = mine.filter { campaign in
            guard let cursor else { return true }
            return (campaign.updatedAt, campaign.id.rawValue) < (cursor.updatedAt, cursor.id.rawValue)
        }
        return Array(after.prefix(limit))
    }

    func scenes(of id: CampaignID, from first: Int, limit: Int) async throws -> [StoredScene] {
        Array((state.withLock { $0.scenes[id] } ?? []).filter { $0.number >= first }.prefix(limit))
    }

    func update(_ id: CampaignID, tenant: TenantID, identity: Identity, title: String?, settings: String?) async throws -> StoredCampaign? {
        guard let campaign = try await find(id, tenant: tenant, identity: identity) else { return nil }
        return change(campaign) {
            $0.title = title ?? $0.title
            $0.settings = settings ?? $0.settings
        }
    }

    func beginTurn(_ id: CampaignID, job: JobID, action: String, atScene sceneCount: Int) async throws -> Bool {
        guard let campaign = state.withLock({ $0.campaigns[id] }), campaign.pendingJob == nil, campaign.sceneCount == sceneCount,
            campaign.state != nil
        else { return false }
        _ = change(campaign) {
            $0.pendingJob = job
            $0.pendingAction = action
            $0.lastError = nil
        }
        return true
    }

    func apply(_ scene: NewScene, state gameState: String, to id: CampaignID, job: JobID) async throws -> Bool {
        guard let campaign = state.withLock({ $0.campaigns[id] }), campaign.pendingJob == job else { return false }
        let now = state.withLock { $0.tick() }
        let stored = StoredScene(
            number: scene.number, action: campaign.pendingAction, title: scene.title, narrative: scene.narrative,
            planningBlock: scene.planningBlock, job: job, createdAt: now)
        state.withLock { $0.scenes[id, default: []].append(stored) }
        _ = change(campaign) {
            $0.state = gameState
            $0.sceneCount = scene.number
            $0.pendingJob = nil
            $0.pendingAction = nil
        }
        return true
    }

    func fail(_ id: CampaignID, job: JobID, reason: String) async throws {
        guard let campaign = state.withLock({ $0.campaigns[id] }), campaign.pendingJob == job else { return }
        _ = change(campaign) {
            $0.pendingJob = nil
            $0.pendingAction = nil
            $0.lastError = reason
        }
    }

    /// The fields a change may touch.
    private struct Fields {
        var title: String
        var settings: String
        var state: String?
        var sceneCount: Int
        var pendingJob: JobID?
        var pendingAction: String?
        var lastError: String?
    }

    private func change(_ campaign: StoredCampaign, _ edit: (inout Fields) -> Void) -> StoredCampaign {
        var fields = Fields(
            title: campaign.title, settings: campaign.settings, state: campaign.state, sceneCount: campaign.sceneCount,
            pendingJob: campaign.pendingJob, pendingAction: campaign.pendingAction, lastError: campaign.lastError)
        edit(&fields)
        return state.withLock { state in
            let changed = StoredCampaign(
                id: campaign.id, tenant: campaign.tenant, identity: campaign.identity, title: fields.title, settings: fields.settings,
                state: fields.state, sceneCount: fields.sceneCount, pendingJob: fields.pendingJob, pendingAction: fields.pendingAction,
                lastError: fields.lastError, createdAt: campaign.createdAt, updatedAt: state.tick())
            state.campaigns[campaign.id] = changed
            return changed
        }
    }
}
