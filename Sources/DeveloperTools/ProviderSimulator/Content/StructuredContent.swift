import Foundation
import KilnJSON

/// What the simulator does with answers that must be JSON beyond generating them: a model's broken JSON on demand
/// (the `invalid_json` fault), and Anthropic's way of asking for a schema, which has no parameter and travels in the
/// instructions.
enum StructuredContent {
    /// What a model that lost its way mid-answer writes: the first half of the answer, which is no JSON document.
    static func broken(_ text: String) -> String {
        String(text.prefix(max(text.count / 2, 1)))
    }

    /// The line Kiln's Anthropic client puts before the schema in the system prompt.
    static let anthropicSchemaMarker = "that satisfies this JSON Schema:\n"

    /// The schema a system prompt asks the answer to satisfy, when it asks for one (the rest of the prompt after the
    /// marker line, as JSON).
    static func schema(inInstructions system: String) -> JSONValue? {
        guard let marker = system.range(of: anthropicSchemaMarker) else { return nil }
        let rest = system[marker.upperBound...]
        let line = rest.split(separator: "\n", maxSplits: 1).first.map(String.init) ?? ""
        return JSONValue.parse(line)
    }
}
