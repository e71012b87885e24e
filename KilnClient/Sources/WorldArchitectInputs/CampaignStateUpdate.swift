public import JobVocabulary
public import KilnJSON

/// What a turn changes in the game state, as the game master (the model) writes it: checked against the state it
/// was given before it is applied, so an app never receives an NPC nobody met, negative hit points, or a combat that
/// starts with nobody or never ends.
public struct CampaignStateUpdate: Codable, Sendable, Equatable {
    public struct NPCChange: Codable, Sendable, Equatable {
        /// An NPC of the campaign, by name.
        public var name: String
        public var hp: Int
        public var attitude: CampaignState.NPC.Attitude
    }

    /// An NPC met for the first time; it enters at full hit points.
    public struct NewNPC: Codable, Sendable, Equatable {
        public var name: String
        public var maxHP: Int
        public var attitude: CampaignState.NPC.Attitude

        enum CodingKeys: String, CodingKey {
            case name, attitude
            case maxHP = "max_hp"
        }
    }

    /// How combat moves on: from no combat to `none` or `started`, from combat to `ongoing` or `ended`.
    public enum CombatStatus: String, Codable, Sendable, InputChoice {
        case none, started, ongoing, ended

        public var isActive: Bool { self == .started || self == .ongoing }
    }

    public struct Combat: Codable, Sendable, Equatable {
        public var status: CombatStatus
        /// Who fights after this turn, by name; empty unless the status is `started` or `ongoing`.
        public var combatants: [String]
    }

    public var characterHP: Int
    public var inventoryAdded: [String]
    public var inventoryRemoved: [String]
    public var npcChanges: [NPCChange]
    public var newNPCs: [NewNPC]
    /// Where the party is after the turn.
    public var location: String
    public var combat: Combat

    enum CodingKeys: String, CodingKey {
        case location, combat
        case characterHP = "character_hp"
        case inventoryAdded = "inventory_added"
        case inventoryRemoved = "inventory_removed"
        case npcChanges = "npc_changes"
        case newNPCs = "new_npcs"
    }

    /// The combat statuses that may follow `combat`.
    public static func allowedStatuses(after combat: CampaignState.Combat) -> [CombatStatus] {
        combat.active ? [.ongoing, .ended] : [.none, .started]
    }

    /// The state after this update, or every way the update contradicts `state` (paths under `path`).
    public func applied(to state: CampaignState, path: String = "$.update") -> Result<CampaignState, Inconsistent> {
        var found: [OutputViolation] = []
        var next = state
        if !(0...state.character.maxHP).contains(characterHP) {
            found.append(.init(path: "\(path).character_hp", reason: "must be between 0 and the character's max_hp \(state.character.maxHP)"))
        }
        next.character.hp = characterHP
        for (index, item) in inventoryRemoved.enumerated() {
            if let position = next.character.inventory.firstIndex(of: item) {
                next.character.inventory.remove(at: position)
            } else {
                found.append(.init(path: "\(path).inventory_removed[\(index)]", reason: "'\(item)' is not in the character's inventory"))
            }
        }
        next.character.inventory += inventoryAdded
        for (index, change) in npcChanges.enumerated() {
            guard let position = next.npcs.firstIndex(where: { $0.name == change.name }) else {
                found.append(
                    .init(path: "\(path).npc_changes[\(index)].name", reason: "'\(change.name)' is no NPC of the campaign; introduce it in new_npcs"))
                continue
            }
            if !(0...next.npcs[position].maxHP).contains(change.hp) {
                found.append(
                    .init(
                        path: "\(path).npc_changes[\(index)].hp", reason: "must be between 0 and \(change.name)'s max_hp \(next.npcs[position].maxHP)"
                    ))
            }
            next.npcs[position].hp = change.hp
            next.npcs[position].attitude = change.attitude
        }
        var names = Set([state.character.name] + state.npcs.map(\.name))
        for (index, npc) in newNPCs.enumerated() {
            if !names.insert(npc.name).inserted {
                found.append(.init(path: "\(path).new_npcs[\(index)].name", reason: "'\(npc.name)' is already in the campaign"))
            }
            if npc.maxHP < 1 { found.append(.init(path: "\(path).new_npcs[\(index)].max_hp", reason: "must be at least 1")) }
            next.npcs.append(CampaignState.NPC(name: npc.name, hp: max(npc.maxHP, 0), maxHP: npc.maxHP, attitude: npc.attitude))
        }
        next.location = location
        if !next.locations.contains(location) { next.locations.append(location) }
        found += checkCombat(after: state.combat, in: next, path: "\(path).combat")
        var fighting = Set<String>()
        // A name listed twice is one combatant.
        next.combat = CampaignState.Combat(active: combat.status.isActive, combatants: combat.combatants.filter { fighting.insert($0).inserted })
        return found.isEmpty ? .success(next) : .failure(Inconsistent(violations: found))
    }

    /// Combat enters with someone to fight, goes on only while someone still stands, and is cleaned up when it ends.
    private func checkCombat(after previous: CampaignState.Combat, in next: CampaignState, path: String) -> [OutputViolation] {
        let allowed = Self.allowedStatuses(after: previous)
        guard allowed.contains(combat.status) else {
            return [
                .init(
                    path: "\(path).status",
                    reason: "must be \(allowed.map(\.rawValue).joined(separator: " or ")) \(previous.active ? "during" : "outside") combat")
            ]
        }
        guard combat.status.isActive else {
            return combat.combatants.isEmpty
                ? [] : [.init(path: "\(path).combatants", reason: "must be empty when combat is \(combat.status.rawValue)")]
        }
        guard !combat.combatants.isEmpty else {
            return [.init(path: "\(path).combatants", reason: "must name who fights when combat is \(combat.status.rawValue)")]
        }
        var found: [OutputViolation] = []
        for (index, name) in combat.combatants.enumerated() {
            guard let npc = next.npcs.first(where: { $0.name == name }) else {
                found.append(.init(path: "\(path).combatants[\(index)]", reason: "'\(name)' is no NPC of the campaign"))
                continue
            }
            if npc.hp == 0 {
                found.append(.init(path: "\(path).combatants[\(index)]", reason: "'\(name)' is down (0 hp): leave it out, or end the combat"))
            }
        }
        return found
    }

    /// The ways an update contradicts the state it was meant for.
    public struct Inconsistent: Error, Sendable, Equatable {
        public let violations: [OutputViolation]
    }
}
