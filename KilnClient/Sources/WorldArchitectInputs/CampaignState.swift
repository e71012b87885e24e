public import JobVocabulary

/// WorldArchitect's game state: the player's character, the NPCs met so far, where the party is, and the combat in
/// progress. The app sends it with every turn and receives the next one, so it is the whole truth the game master
/// (the model) works from; Kiln checks each change against it before returning it.
public struct CampaignState: Codable, Sendable, Equatable {
    public struct Character: Codable, Sendable, Equatable {
        public var name: String
        /// "rogue", "wizard", … as the player chose.
        public var characterClass: String
        public var level: Int
        public var hp: Int
        public var maxHP: Int
        public var inventory: [String]

        enum CodingKeys: String, CodingKey {
            case name, level, hp, inventory
            case characterClass = "class"
            case maxHP = "max_hp"
        }

        public init(name: String, characterClass: String, level: Int, hp: Int, maxHP: Int, inventory: [String]) {
            self.name = name
            self.characterClass = characterClass
            self.level = level
            self.hp = hp
            self.maxHP = maxHP
            self.inventory = inventory
        }
    }

    public struct NPC: Codable, Sendable, Equatable {
        public enum Attitude: String, Codable, Sendable, InputChoice {
            case friendly, neutral, hostile
        }

        /// Unique in the campaign: what turns refer to it by.
        public var name: String
        public var hp: Int
        public var maxHP: Int
        public var attitude: Attitude

        enum CodingKeys: String, CodingKey {
            case name, hp, attitude
            case maxHP = "max_hp"
        }

        public init(name: String, hp: Int, maxHP: Int, attitude: Attitude) {
            self.name = name
            self.hp = hp
            self.maxHP = maxHP
            self.attitude = attitude
        }
    }

    public struct Combat: Codable, Sendable, Equatable {
        public var active: Bool
        /// The NPCs fighting, by name; empty when no combat is on.
        public var combatants: [String]

        public init(active: Bool, combatants: [String]) {
            self.active = active
            self.combatants = combatants
        }
    }

    public var character: Character
    public var npcs: [NPC]
    /// Where the party is now.
    public var location: String
    /// The places discovered so far.
    public var locations: [String]
    public var combat: Combat

    public init(character: Character, npcs: [NPC], location: String, locations: [String], combat: Combat) {
        self.character = character
        self.npcs = npcs
        self.location = location
        self.locations = locations
        self.combat = combat
    }

    /// The first way this state contradicts itself, naming the field under `field`; nil when it holds together.
    public func inconsistency(field: String) -> InputError? {
        let character = self.character
        if character.name.isEmpty || character.name.count > 80 {
            return InputError(field: "\(field).character.name", reason: "must be 1–80 characters long")
        }
        if character.level < 1 { return InputError(field: "\(field).character.level", reason: "must be at least 1") }
        if character.maxHP < 1 { return InputError(field: "\(field).character.max_hp", reason: "must be at least 1") }
        if !(0...character.maxHP).contains(character.hp) {
            return InputError(field: "\(field).character.hp", reason: "must be between 0 and max_hp (\(character.maxHP)), not \(character.hp)")
        }
        var names: Set<String> = [character.name]
        for (index, npc) in npcs.enumerated() {
            let path = "\(field).npcs[\(index)]"
            if npc.name.isEmpty || npc.name.count > 80 { return InputError(field: "\(path).name", reason: "must be 1–80 characters long") }
            if !names.insert(npc.name).inserted { return InputError(field: "\(path).name", reason: "'\(npc.name)' is already in the campaign") }
            if npc.maxHP < 1 { return InputError(field: "\(path).max_hp", reason: "must be at least 1") }
            if !(0...npc.maxHP).contains(npc.hp) {
                return InputError(field: "\(path).hp", reason: "must be between 0 and max_hp (\(npc.maxHP)), not \(npc.hp)")
            }
        }
        if combat.active == combat.combatants.isEmpty {
            return InputError(
                field: "\(field).combat.combatants",
                reason: combat.active ? "must name who fights while combat is active" : "must be empty while no combat is active")
        }
        for (index, name) in combat.combatants.enumerated() {
            guard let npc = npcs.first(where: { $0.name == name }) else {
                return InputError(field: "\(field).combat.combatants[\(index)]", reason: "names no NPC of the campaign: '\(name)'")
            }
            if npc.hp == 0 { return InputError(field: "\(field).combat.combatants[\(index)]", reason: "'\(name)' is down (0 hp) and cannot fight") }
        }
        return nil
    }
}
