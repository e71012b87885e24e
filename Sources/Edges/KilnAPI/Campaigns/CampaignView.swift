import Foundation
import KilnCore
import KilnJSON
import KilnStore

/// A campaign as its owner sees it (the `Campaign` schema of `openapi.json`), over `/v1/campaigns` and in the MCP tools'
/// structured results alike.
struct CampaignView: Encodable {
    /// A scene of the history ("Scene #3").
    struct Scene: Encodable {
        let number: Int
        let action: String?
        let title: String?
        let narrative: String
        let planningBlock: JSONValue

        init(_ scene: StoredScene) {
            number = scene.number
            action = scene.action
            title = scene.title
            narrative = scene.narrative
            planningBlock = JSONValue.parse(scene.planningBlock) ?? .null
        }

        enum CodingKeys: String, CodingKey {
            case number, action, title, narrative
            case planningBlock = "planning_block"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(number, forKey: .number)
            // Written as `null` when absent: apps read every member.
            try container.encode(action, forKey: .action)
            try container.encode(title, forKey: .title)
            try container.encode(narrative, forKey: .narrative)
            try container.encode(planningBlock, forKey: .planningBlock)
        }
    }

    let id: CampaignID
    let title: String
    let settings: JSONValue
    let state: JSONValue
    let sceneCount: Int
    /// `opening` (its first scene is being written), `playing` (a turn is), `ready` for the next action, or `failed`
    /// (its opening failed: see `last_error`).
    let status: String
    /// The opening or turn job in flight, to follow with `/v1/jobs/{id}/events`.
    let jobID: JobID?
    let lastError: String?
    let createdAt: Date
    let updatedAt: Date
    /// The history from the scene asked for; absent from lists.
    let scenes: [Scene]?

    init(_ campaign: StoredCampaign, scenes: [StoredScene]? = nil) {
        id = campaign.id
        title = campaign.title
        settings = JSONValue.parse(campaign.settings) ?? .null
        state = campaign.state.flatMap(JSONValue.parse) ?? .null
        sceneCount = campaign.sceneCount
        switch (campaign.pendingJob, campaign.state) {
        case (.some, nil): status = "opening"
        case (.some, .some): status = "playing"
        case (nil, .some): status = "ready"
        case (nil, nil): status = "failed"
        }
        jobID = campaign.pendingJob
        lastError = campaign.lastError
        createdAt = campaign.createdAt
        updatedAt = campaign.updatedAt
        self.scenes = scenes.map { $0.map(Scene.init) }
    }

    enum CodingKeys: String, CodingKey {
        case id, title, settings, state, status, scenes
        case sceneCount = "scene_count"
        case jobID = "job_id"
        case lastError = "last_error"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(title, forKey: .title)
        try container.encode(settings, forKey: .settings)
        try container.encode(state, forKey: .state)
        try container.encode(sceneCount, forKey: .sceneCount)
        try container.encode(status, forKey: .status)
        try container.encode(jobID, forKey: .jobID)
        try container.encode(lastError, forKey: .lastError)
        try container.encode(JobView.time(createdAt), forKey: .createdAt)
        try container.encode(JobView.time(updatedAt), forKey: .updatedAt)
        try container.encodeIfPresent(scenes, forKey: .scenes)
    }
}

/// A campaign and the job just submitted for it (`POST /v1/campaigns`, a turn, an export).
struct CampaignJobAnswer: Encodable {
    let campaign: CampaignView
    let job: JobView
}

/// A page of the caller's campaigns (`GET /v1/campaigns`).
struct CampaignListAnswer: Encodable {
    let campaigns: [CampaignView]
    /// Pass as `cursor` for the next page; null on the last.
    let nextCursor: String?

    enum CodingKeys: String, CodingKey {
        case campaigns
        case nextCursor = "next_cursor"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(campaigns, forKey: .campaigns)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}
