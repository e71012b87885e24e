public import JobVocabulary

/// `campaign.open`: a new WorldArchitect campaign — the setting, the player's character and the telling's style →
/// "Scene #1" and the initial game state.
public struct CampaignOpenInput: KindInput, Equatable {
    public struct Character: Codable, Sendable, Equatable {
        public var name: String
        /// "rogue", "wizard", …; the game master picks one when absent.
        public var characterClass: String?
        /// A few lines of who the character is.
        public var background: String?

        enum CodingKeys: String, CodingKey {
            case name, background
            case characterClass = "class"
        }

        public init(name: String, characterClass: String? = nil, background: String? = nil) {
            self.name = name
            self.characterClass = characterClass
            self.background = background
        }
    }

    public var setting: String
    public var character: Character
    /// How the story is told ("grim and terse", "light-hearted"), if the player said.
    public var style: String?

    public init(setting: String, character: Character, style: String? = nil) {
        self.setting = setting
        self.character = character
        self.style = style
    }

    public func validate() throws {
        try InputError.checkLength(setting, field: "input.setting", maximum: CampaignLimits.setting)
        try InputError.checkLength(character.name, field: "input.character.name", maximum: CampaignLimits.name)
        try InputError.checkLength(character.characterClass, field: "input.character.class", maximum: CampaignLimits.name)
        try InputError.checkLength(character.background, field: "input.character.background", maximum: CampaignLimits.setting)
        try InputError.checkLength(style, field: "input.style", maximum: CampaignLimits.style)
    }
}

/// `campaign.turn`: the player's action in the current state, with the latest scenes for context → the next scene.
public struct CampaignTurnInput: KindInput, Equatable {
    /// A scene already played, as the app's history shows it ("Scene #3").
    public struct Scene: Codable, Sendable, Equatable {
        public var number: Int
        public var narrative: String

        public init(number: Int, narrative: String) {
            self.number = number
            self.narrative = narrative
        }
    }

    public var state: CampaignState
    /// The number of the latest scene played; the turn writes the next.
    public var sceneNumber: Int
    /// The latest scenes, oldest first (at most ``CampaignLimits/recentScenes``).
    public var recentScenes: [Scene]
    /// What the player does: one of the planning block's choices, or their own words.
    public var action: String

    /// The most recent scenes a turn may carry.
    public static let recentSceneLimit = CampaignLimits.recentScenes

    enum CodingKeys: String, CodingKey {
        case state, action
        case sceneNumber = "scene_number"
        case recentScenes = "recent_scenes"
    }

    public init(state: CampaignState, sceneNumber: Int, recentScenes: [Scene] = [], action: String) {
        self.state = state
        self.sceneNumber = sceneNumber
        self.recentScenes = recentScenes
        self.action = action
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        state = try container.decode(CampaignState.self, forKey: .state)
        sceneNumber = try container.decode(Int.self, forKey: .sceneNumber)
        recentScenes = try container.decodeIfPresent([Scene].self, forKey: .recentScenes) ?? []
        action = try container.decode(String.self, forKey: .action)
    }

    public func validate() throws {
        if let error = state.inconsistency(field: "input.state") { throw error }
        guard sceneNumber >= 1 else { throw InputError(field: "input.scene_number", reason: "must be at least 1") }
        guard recentScenes.count <= CampaignLimits.recentScenes else {
            throw InputError(field: "input.recent_scenes", reason: "must hold at most \(CampaignLimits.recentScenes) scenes")
        }
        for (index, scene) in recentScenes.enumerated() {
            try InputError.checkLength(scene.narrative, field: "input.recent_scenes[\(index)].narrative", maximum: CampaignLimits.narrative)
        }
        try InputError.checkLength(action, field: "input.action", maximum: CampaignLimits.setting)
    }
}

/// The sizes WorldArchitect's texts may have.
enum CampaignLimits {
    static let setting = 2_000
    static let name = 80
    static let style = 200
    static let narrative = 10_000
    static let recentScenes = 5
}
