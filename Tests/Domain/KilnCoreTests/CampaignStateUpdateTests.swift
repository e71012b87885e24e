import Foundation
import KilnJSON
import Testing
import WorldArchitectInputs

@Suite struct CampaignStateUpdateTests {
    static func state(combat: CampaignState.Combat = .init(active: false, combatants: [])) -> CampaignState {
        CampaignState(
            character: .init(name: "Kael", characterClass: "rogue", level: 2, hp: 10, maxHP: 20, inventory: ["dagger", "rope"]),
            npcs: [.init(name: "Bran", hp: 8, maxHP: 8, attitude: .friendly), .init(name: "Sera", hp: 12, maxHP: 12, attitude: .hostile)],
            location: "Chapel", locations: ["Chapel"], combat: combat)
    }

    static func update(_ text: String) throws -> CampaignStateUpdate {
        try JSONDecoder().decode(CampaignStateUpdate.self, from: Data(text.utf8))
    }

    static func violations(_ update: CampaignStateUpdate, on state: CampaignState) -> [String] {
        guard case .failure(let inconsistent) = update.applied(to: state) else { return [] }
        return inconsistent.violations.map(\.description)
    }

    @Test func aConsistentUpdateIsApplied() throws {
        let update = try Self.update(
            #"""
            {"character_hp": 7, "inventory_added": ["old key"], "inventory_removed": ["rope"],
             "npc_changes": [{"name": "Sera", "hp": 5, "attitude": "hostile"}],
             "new_npcs": [{"name": "Wisp", "max_hp": 3, "attitude": "neutral"}], "location": "Crypt",
             "combat": {"status": "started", "combatants": ["Sera", "Wisp"]}}
            """#)
        let next = try update.applied(to: Self.state()).get()
        #expect(next.character.hp == 7 && next.character.inventory == ["dagger", "old key"])
        #expect(next.npcs.map(\.name) == ["Bran", "Sera", "Wisp"] && next.npcs[1].hp == 5 && next.npcs[2].hp == 3)
        #expect(next.location == "Crypt" && next.locations == ["Chapel", "Crypt"])
        #expect(next.combat == .init(active: true, combatants: ["Sera", "Wisp"]))
        #expect(next.inconsistency(field: "state") == nil)
    }

    @Test(arguments: [
        (
            #""npc_changes": [{"name": "Ghost", "hp": 1, "attitude": "hostile"}]"#,
            "$.update.npc_changes[0].name 'Ghost' is no NPC of the campaign; introduce it in new_npcs"
        ),
        (#""npc_changes": [{"name": "Bran", "hp": 9, "attitude": "friendly"}]"#, "$.update.npc_changes[0].hp must be between 0 and Bran's max_hp 8"),
        (#""character_hp": -1"#, "$.update.character_hp must be between 0 and the character's max_hp 20"),
        (#""inventory_removed": ["sword"]"#, "$.update.inventory_removed[0] 'sword' is not in the character's inventory"),
        (#""new_npcs": [{"name": "Bran", "max_hp": 3, "attitude": "neutral"}]"#, "$.update.new_npcs[0].name 'Bran' is already in the campaign"),
        (#""combat": {"status": "started", "combatants": []}"#, "$.update.combat.combatants must name who fights when combat is started"),
        (#""combat": {"status": "none", "combatants": ["Sera"]}"#, "$.update.combat.combatants must be empty when combat is none"),
        (#""combat": {"status": "ongoing", "combatants": ["Sera"]}"#, "$.update.combat.status must be none or started outside combat"),
        (
            #""npc_changes": [{"name": "Sera", "hp": 0, "attitude": "hostile"}], "combat": {"status": "started", "combatants": ["Sera"]}"#,
            "$.update.combat.combatants[0] 'Sera' is down (0 hp): leave it out, or end the combat"
        ),
    ])
    func anInconsistentUpdateIsRefusedWithThePathOfEachProblem(change: String, expected: String) throws {
        let base =
            #"{"character_hp": 10, "inventory_added": [], "inventory_removed": [], "npc_changes": [], "new_npcs": [], "location": "Chapel", "combat": {"status": "none", "combatants": []}}"#
        guard case .object(let fields) = try #require(JSONValue.parse(base)), case .object(let changed) = try #require(JSONValue.parse("{\(change)}"))
        else {
            Issue.record("the update and the change must be JSON objects")
            return
        }
        let update = try JSONValue.object(fields.merging(changed) { _, new in new }).decode(as: CampaignStateUpdate.self)
        #expect(Self.violations(update, on: Self.state()) == [expected])
    }

    @Test func combatIsCleanedUpWhenItEnds() throws {
        let fighting = Self.state(combat: .init(active: true, combatants: ["Sera"]))
        let ended = try Self.update(
            #"""
            {"character_hp": 10, "inventory_added": [], "inventory_removed": [], "npc_changes": [{"name": "Sera", "hp": 0, "attitude": "hostile"}],
             "new_npcs": [], "location": "Chapel", "combat": {"status": "ended", "combatants": []}}
            """#)
        #expect(try ended.applied(to: fighting).get().combat == .init(active: false, combatants: []))
        let notCleanedUp = try Self.update(
            #"""
            {"character_hp": 10, "inventory_added": [], "inventory_removed": [], "npc_changes": [],
             "new_npcs": [], "location": "Chapel", "combat": {"status": "ended", "combatants": ["Sera"]}}
            """#)
        #expect(Self.violations(notCleanedUp, on: fighting) == ["$.update.combat.combatants must be empty when combat is ended"])
        let startedAgain = try Self.update(
            #"""
            {"character_hp": 10, "inventory_added": [], "inventory_removed": [], "npc_changes": [],
             "new_npcs": [], "location": "Chapel", "combat": {"status": "started", "combatants": ["Sera"]}}
            """#)
        #expect(Self.violations(startedAgain, on: fighting) == ["$.update.combat.status must be ongoing or ended during combat"])
    }
}
