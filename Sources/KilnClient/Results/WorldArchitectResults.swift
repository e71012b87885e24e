public import WorldArchitectInputs

/// The choices offered after a scene.
public struct PlanningBlock: Codable, Sendable, Equatable {
    public struct Choice: Codable, Sendable, Equatable {
        /// `choice_1`, `choice_2`, …
        public let id: String
        public let text: String
    }

    public let choices: [Choice]
}

/// The result of `campaign.open`: "Scene #1" and the state the next turn sends back.
public struct CampaignOpening: Codable, Sendable, Equatable {
    public let sceneNumber: Int
    public let title: String
    public let narrative: String
    public let planningBlock: PlanningBlock
    public let state: CampaignState

    enum CodingKeys: String, CodingKey {
        case title, narrative, state
        case sceneNumber = "scene_number"
        case planningBlock = "planning_block"
    }
}

/// The result of `campaign.turn`: the next scene, the change it made, and the state after it (checked against the
/// state sent), which the next turn sends back.
public struct CampaignTurn: Codable, Sendable, Equatable {
    public let sceneNumber: Int
    public let narrative: String
    public let planningBlock: PlanningBlock
    public let stateUpdate: CampaignStateUpdate
    public let state: CampaignState

    enum CodingKeys: String, CodingKey {
        case narrative, state
        case sceneNumber = "scene_number"
        case planningBlock = "planning_block"
        case stateUpdate = "state_update"
    }
}
