/// The choices offered after a scene.
public struct PlanningBlock: Codable, Sendable, Equatable {
    public struct Choice: Codable, Sendable, Equatable {
        /// `choice_1`, `choice_2`, …
        public let id: String
        public let text: String

        public init(id: String, text: String) {
            self.id = id
            self.text = text
        }
    }

    public let choices: [Choice]

    /// The choices of `texts`, numbered from `choice_1` in order.
    public init(choosingAmong texts: [String]) {
        choices = texts.enumerated().map { index, text in Choice(id: "choice_\(index + 1)", text: text) }
    }
}

/// The result of `campaign.open`: "Scene #1" and the state the next turn sends back. The worker writes it and the
/// client reads it as this type.
public struct CampaignOpening: Codable, Sendable, Equatable {
    public let sceneNumber: Int
    public let title: String
    public let narrative: String
    public let planningBlock: PlanningBlock
    public let state: CampaignState

    public init(title: String, narrative: String, planningBlock: PlanningBlock, state: CampaignState) {
        self.sceneNumber = 1
        self.title = title
        self.narrative = narrative
        self.planningBlock = planningBlock
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case title, narrative, state
        case sceneNumber = "scene_number"
        case planningBlock = "planning_block"
    }
}

/// The result of `campaign.turn`: the next scene, the change it made, and the state after it (checked against the
/// state sent), which the next turn sends back. The worker writes it and the client reads it as this type.
public struct CampaignTurn: Codable, Sendable, Equatable {
    public let sceneNumber: Int
    public let narrative: String
    public let planningBlock: PlanningBlock
    public let stateUpdate: CampaignStateUpdate
    public let state: CampaignState

    public init(sceneNumber: Int, narrative: String, planningBlock: PlanningBlock, stateUpdate: CampaignStateUpdate, state: CampaignState) {
        self.sceneNumber = sceneNumber
        self.narrative = narrative
        self.planningBlock = planningBlock
        self.stateUpdate = stateUpdate
        self.state = state
    }

    enum CodingKeys: String, CodingKey {
        case narrative, state
        case sceneNumber = "scene_number"
        case planningBlock = "planning_block"
        case stateUpdate = "state_update"
    }
}
