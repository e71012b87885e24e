import KilnJSON
import WorldArchitectInputs

/// `campaign.turn`: the next scene's narrative (streamed as `delta` events), its number, the planning block, and
/// the game-state update, which must be consistent with the state the app sent (``CampaignStateUpdate``): no unknown
/// NPC, no hit points out of range, combat entered with someone to fight and cleaned up when it ends. Its schema is
/// made from that state (the NPCs' names, the items held, the combat moves allowed), so a model that enforces
/// schemas cannot even write most contradictions; Kiln checks the rest.
struct CampaignTurnKind: StructuredTextKind {
    typealias Input = CampaignTurnInput

    var promptID: String { "campaign.turn.v1" }
    var schemaName: String { "campaign_turn" }
    var maxTokens: Int { 2048 }

    func promptValues(for input: CampaignTurnInput, raw: JSONValue) -> JSONValue {
        guard case .object(var values) = raw else { return raw }
        values["next_scene_number"] = .number(Double(input.sceneNumber + 1))
        values["in_combat"] = .bool(input.state.combat.active)
        return .object(values)
    }

    func schema(for input: CampaignTurnInput) -> JSONValue {
        let state = input.state
        let words = CampaignSchemas.words
        let npcNames = state.npcs.map(\.name)
        // One shape per NPC, so each one's hit points are bounded by its own maximum.
        let npcChange: JSONValue =
            state.npcs.isEmpty
            ? Schema.object(["name": Schema.string(length: 1...80), "hp": Schema.integer(0...0), "attitude": CampaignSchemas.attitude])
            : .object([
                "anyOf": .array(
                    state.npcs.map { npc in
                        Schema.object(["name": Schema.oneOf([npc.name]), "hp": Schema.integer(0...npc.maxHP), "attitude": CampaignSchemas.attitude])
                    })
            ])
        let combat = CampaignStateUpdate.allowedStatuses(after: state.combat).compactMap { status -> JSONValue? in
            guard status.isActive else {
                return Schema.object(["status": Schema.oneOf([status.rawValue]), "combatants": Schema.array(of: Schema.string(), count: 0...0)])
            }
            guard !npcNames.isEmpty else { return nil }
            return Schema.object([
                "status": Schema.oneOf([status.rawValue]), "combatants": Schema.array(of: Schema.oneOf(npcNames), count: 1...npcNames.count),
            ])
        }
        return Schema.object([
            "narrative": Schema.string(description: "The next scene: \(words.lowerBound)–\(words.upperBound) words of second-person narrative."),
            "choices": CampaignSchemas.choices,
            "update": Schema.object([
                "character_hp": Schema.integer(0...state.character.maxHP),
                "inventory_added": Schema.array(of: Schema.string(length: 1...60), count: 0...5),
                "inventory_removed": state.character.inventory.isEmpty
                    ? Schema.array(of: Schema.string(), count: 0...0)
                    : Schema.array(of: Schema.oneOf(Array(Set(state.character.inventory)).sorted()), count: 0...state.character.inventory.count),
                "npc_changes": Schema.array(of: npcChange, count: 0...npcNames.count),
                "new_npcs": Schema.array(of: CampaignSchemas.newNPC, count: 0...3),
                "location": CampaignSchemas.location,
                "combat": .object(["anyOf": .array(combat)]),
            ]),
        ])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? {
        path == [.key("narrative")] ? 0 : nil
    }

    func result(from answer: JSONValue, input: CampaignTurnInput) -> Result<CampaignTurn, StructuredAnswerRejected> {
        let narrative = answer["narrative"]?.stringValue ?? ""
        var violations: [OutputViolation] = []
        if let violation = WordCount.check(narrative, CampaignSchemas.words, at: "$.narrative") { violations.append(violation) }
        guard let update = try? answer["update"]?.decode(as: CampaignStateUpdate.self) else {
            return .failure(StructuredAnswerRejected(violations + [OutputViolation(path: "$.update", reason: "is not a game-state update")]))
        }
        switch update.applied(to: input.state) {
        case .failure(let inconsistent):
            return .failure(StructuredAnswerRejected(violations + inconsistent.violations))
        case .success(let state):
            violations += CampaignSchemas.violations(of: state)
            guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
            return .success(
                CampaignTurn(
                    sceneNumber: input.sceneNumber + 1, narrative: narrative, planningBlock: CampaignSchemas.planningBlock(answer),
                    stateUpdate: update, state: state))
        }
    }
}
