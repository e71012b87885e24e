import Foundation
import KilnCore
import KilnJSON
import WorldArchitectInputs

/// What WorldArchitect's two kinds share: the planning block, NPC attitudes, and the game state as the app receives it.
enum CampaignSchemas {
    static let words = 100...400
    static let choices = Schema.array(of: Schema.string(length: 1...200), count: 2...5)
    static let attitude = Schema.oneOf(CampaignState.NPC.Attitude.allCases.map(\.rawValue))
    static let location = Schema.string(length: 1...120)
    static let hitPoints = 1...200

    /// An NPC met for the first time.
    static let newNPC = Schema.object(["name": Schema.string(length: 1...80), "max_hp": Schema.integer(hitPoints), "attitude": attitude])

    /// The planning block the app shows: the choices the player must pick from, numbered.
    static func planningBlock(_ answer: JSONValue) -> PlanningBlock {
        PlanningBlock(choosingAmong: (answer["choices"]?.arrayValue ?? []).compactMap(\.stringValue))
    }

    /// The state's own contradictions, as violations at `$` (the answer they came from).
    static func violations(of state: CampaignState) -> [OutputViolation] {
        state.inconsistency(field: "$").map { [OutputViolation(path: $0.field, reason: $0.reason)] } ?? []
    }
}
