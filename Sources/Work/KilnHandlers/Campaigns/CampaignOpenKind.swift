import KilnJSON
import WorldArchitectInputs

/// `campaign.open`: "Scene #1" of a new campaign (its narrative streamed as `delta` events), the planning block, and
/// the initial game state, checked to hold together before the app receives it.
struct CampaignOpenKind: StructuredTextKind {
    typealias Input = CampaignOpenInput

    var promptID: String { "campaign.open.v1" }
    var schemaName: String { "campaign_opening" }
    var maxTokens: Int { 2048 }

    func schema(for input: CampaignOpenInput) -> JSONValue {
        let words = CampaignSchemas.words
        return Schema.object([
            "title": Schema.string(length: 1...80),
            "narrative": Schema.string(description: "Scene #1: \(words.lowerBound)–\(words.upperBound) words of second-person narrative."),
            "choices": CampaignSchemas.choices,
            "character": Schema.object([
                "class": input.character.characterClass.map { Schema.oneOf([$0]) } ?? Schema.string(length: 1...40),
                "level": Schema.integer(1...20),
                "max_hp": Schema.integer(CampaignSchemas.hitPoints),
                "inventory": Schema.array(of: Schema.string(length: 1...60), count: 0...8),
            ]),
            "npcs": Schema.array(of: CampaignSchemas.newNPC, count: 0...4),
            "location": CampaignSchemas.location,
        ])
    }

    func streamedField(at path: [JSONFieldStream.Component]) -> Int? {
        path == [.key("narrative")] ? 0 : nil
    }

    func result(from answer: JSONValue, input: CampaignOpenInput) -> Result<CampaignOpening, StructuredAnswerRejected> {
        let narrative = answer["narrative"]?.stringValue ?? ""
        let character = answer["character"]
        let maxHP = character?["max_hp"]?.intValue ?? 0
        let npcs = (answer["npcs"]?.arrayValue ?? []).map { npc in
            let maxHP = npc["max_hp"]?.intValue ?? 0
            return CampaignState.NPC(
                name: npc["name"]?.stringValue ?? "", hp: maxHP, maxHP: maxHP,
                attitude: npc["attitude"]?.stringValue.flatMap(CampaignState.NPC.Attitude.init(rawValue:)) ?? .neutral)
        }
        let location = answer["location"]?.stringValue ?? ""
        let state = CampaignState(
            character: CampaignState.Character(
                name: input.character.name, characterClass: character?["class"]?.stringValue ?? "", level: character?["level"]?.intValue ?? 1,
                hp: maxHP, maxHP: maxHP, inventory: (character?["inventory"]?.arrayValue ?? []).compactMap(\.stringValue)),
            npcs: npcs, location: location, locations: [location], combat: CampaignState.Combat(active: false, combatants: []))
        // The state's NPCs are the answer's, in order, so the paths of its contradictions point into the answer.
        var violations = CampaignSchemas.violations(of: state)
        if let violation = WordCount.check(narrative, CampaignSchemas.words, at: "$.narrative") { violations.append(violation) }
        guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
        return .success(
            CampaignOpening(
                title: answer["title"]?.stringValue ?? "", narrative: narrative, planningBlock: CampaignSchemas.planningBlock(answer), state: state))
    }
}
