import Foundation
import KilnJSON

/// Generates a JSON instance that is valid for a JSON Schema, as structured-output models answer.
///
/// Covers what structured outputs use: `type` (also a list, and Gemini's upper-case names), `enum`, `const`,
/// `properties` (every property is filled, in the order of their names), `items` with `minItems`/`maxItems` (3 items unless the bounds say
/// otherwise), string `minLength`/`maxLength`, number and integer bounds (inclusive and exclusive), `anyOf` /
/// `oneOf` / `allOf` (the first branch), `nullable`, and local `$ref`s into `$defs` or `definitions`. A string whose
/// `description` asks for `N–M words` gets that many words of prose, and one stating `N–M characters` that length; an
/// array of `enum` items repeats none while there are enough.
struct SchemaInstanceGenerator {
    private var generator: SeededGenerator
    private var writer: StoryWriter
    private let root: JSONValue

    init(schema: JSONValue, seed: String) {
        self.root = schema
        self.generator = SeededGenerator(seed: "schema:" + seed)
        self.writer = StoryWriter(seed: seed)
    }

    mutating func instance() -> JSONValue {
        self.instance(for: self.root, depth: 0)
    }

    private func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#") else { return nil }
        var node: JSONValue? = self.root
        for component in reference.dropFirst().split(separator: "/") where !component.isEmpty {
            let key = component.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if case .array(let elements)? = node, let index = Int(key), elements.indices.contains(index) {
                node = elements[index]
            } else {
                node = node?[key]
            }
        }
        return node
    }

    private mutating func instance(for schema: JSONValue, depth: Int) -> JSONValue {
        // A recursive schema (a tree of nodes) must stop somewhere; null is the least wrong leaf.
        guard depth < 12 else { return .null }
        if let reference = schema["$ref"]?.stringValue, let target = self.resolve(reference) {
            return self.instance(for: target, depth: depth + 1)
        }
        if let constant = schema["const"] { return constant }
        if let options = schema["enum"]?.arrayValue, !options.isEmpty {
            return self.generator.pick(options)
        }
        for combinator in ["anyOf", "oneOf"] {
            if let branches = schema[combinator]?.arrayValue, !branches.isEmpty {
                // Prefer a branch that is not just null, as a model would.
                let branch = branches.first { $0["type"]?.stringValue?.lowercased() != "null" } ?? branches[0]
                return self.instance(for: branch, depth: depth + 1)
            }
        }
        if case .object(var merged) = schema, let parts = merged.removeValue(forKey: "allOf")?.arrayValue, !parts.isEmpty {
            // What the schema itself says wins, then the earlier parts; properties are united.
            for part in parts {
                guard case .object(let fields) = part["$ref"]?.stringValue.flatMap(self.resolve) ?? part else { continue }
                for (key, value) in fields {
                    if key == "properties", case .object(let old)? = merged[key], case .object(let new) = value {
                        merged[key] = .object(old.merging(new) { first, _ in first })
                    } else if merged[key] == nil {
                        merged[key] = value
                    }
                }
            }
            return self.instance(for: .object(merged), depth: depth + 1)
        }
        switch self.type(of: schema) {
        case "object": return self.object(for: schema, depth: depth)
        case "array": return self.array(for: schema, depth: depth)
        case "string": return .string(self.string(for: schema))
        case "integer": return .number(Double(self.integer(for: schema)))
        case "number":
            // Bounds near the largest doubles can overflow to infinity, which JSON cannot write; null stands in.
            let value = self.number(for: schema)
            return value.isFinite ? .number(value) : .null
        case "boolean": return .bool(Bool.random(using: &self.generator))
        case "null": return .null
        default: return .string(self.string(for: schema))
        }
    }

    /// The schema's type in lower case; the first non-null one of a list; inferred from keywords if absent.
    private func type(of schema: JSONValue) -> String {
        if let name = schema["type"]?.stringValue { return name.lowercased() }
        if let names = schema["type"]?.arrayValue?.compactMap(\.stringValue).map({ $0.lowercased() }), !names.isEmpty {
            return names.first { $0 != "null" } ?? "null"
        }
        if schema["properties"] != nil { return "object" }
        if schema["items"] != nil { return "array" }
        return "string"
    }

    private mutating func object(for schema: JSONValue, depth: Int) -> JSONValue {
        guard case .object(let properties)? = schema["properties"] else { return .object([:]) }
        var fields: [String: JSONValue] = [:]
        // Sorted, so the seeded generator is drawn from in the same order on every run.
        for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
            fields[name] = self.instance(for: property, depth: depth + 1)
        }
        return .object(fields)
    }

    private mutating func array(for schema: JSONValue, depth: Int) -> JSONValue {
        let minimum = max(schema["minItems"]?.intValue ?? 0, 0)
        let maximum = schema["maxItems"]?.intValue ?? Int.max
        let count = min(max(3, minimum), max(maximum, 0))
        let items = schema["items"] ?? .object([:])
        var elements: [JSONValue] = []
        if let prefix = schema["prefixItems"]?.arrayValue {
            for item in prefix.prefix(count) { elements.append(self.instance(for: item, depth: depth + 1)) }
        }
        if var options = items["enum"]?.arrayValue, elements.isEmpty, count <= options.count {
            // A list of choices from a fixed set (items to drop, who fights) names each once, as a model would.
            while elements.count < count {
                elements.append(options.remove(at: Int.random(in: 0..<options.count, using: &self.generator)))
            }
        }
        while elements.count < count {
            elements.append(self.instance(for: items, depth: depth + 1))
        }
        return .array(elements)
    }

    private mutating func string(for schema: JSONValue) -> String {
        // Lengths a description states ("1–120 characters.") bind as minLength/maxLength do.
        let stated = Self.range(of: "characters", in: schema["description"]?.stringValue)
        let minimum = max(schema["minLength"]?.intValue ?? stated?.lowerBound ?? 0, 0)
        let maximum = (schema["maxLength"]?.intValue ?? stated?.upperBound).map { max($0, minimum) }
        switch schema["format"]?.stringValue {
        case "date-time": return Self.fit("2025-01-15T14:24:00Z", minimum: minimum, maximum: maximum)
        case "date": return Self.fit("2025-01-15", minimum: minimum, maximum: maximum)
        case "uuid": return Self.fit("3f2c8a9e-5b7d-4e1a-9c6f-0d8b2a4e7f13", minimum: minimum, maximum: maximum)
        case "email": return Self.fit("mira@example.com", minimum: minimum, maximum: maximum)
        case "uri": return Self.fit("https://example.com/story", minimum: minimum, maximum: maximum)
        default: break
        }
        if let words = Self.range(of: "words", in: schema["description"]?.stringValue) {
            // "80–200 words of story prose": a model reads the description, so the simulator does too.
            return Self.fit(self.writer.words(Int.random(in: words, using: &self.generator)) + ".", minimum: minimum, maximum: maximum)
        }
        var text = self.writer.words(Int.random(in: 3...9, using: &self.generator))
        while text.count < minimum {
            text += " " + self.writer.sentence()
        }
        return Self.fit(text, minimum: minimum, maximum: maximum)
    }

    /// The count of `unit` a description asks for, written `N–M words` or `N–M characters` (or with a hyphen).
    private static func range(of unit: String, in description: String?) -> ClosedRange<Int>? {
        guard let description, let match = description.firstMatch(of: /(\d+)[–-](\d+) (\w+)/), match.3 == unit,
            let low = Int(match.1), let high = Int(match.2), low <= high
        else { return nil }
        return low...high
    }

    /// Pads with prose-free filler or cuts at a word where possible, so the length lands within the bounds.
    private static func fit(_ text: String, minimum: Int, maximum: Int?) -> String {
        var text = text
        if text.count < minimum { text += String(repeating: ".", count: minimum - text.count) }
        if let maximum, text.count > maximum {
            let cut = String(text.prefix(maximum))
            if let space = cut.lastIndex(of: " "), cut.distance(from: cut.startIndex, to: space) >= max(minimum, 1) {
                text = String(cut[..<space])
            } else {
                text = cut
            }
        }
        return text
    }

    private mutating func integer(for schema: JSONValue) -> Int {
        var low = schema["minimum"]?.numberValue.map { Int($0.rounded(.up)) } ?? 0
        var high = schema["maximum"]?.numberValue.map { Int($0.rounded(.down)) } ?? max(low, 0) + 100
        if let exclusive = schema["exclusiveMinimum"]?.numberValue { low = max(low, Int(exclusive.rounded(.down)) + 1) }
        if let exclusive = schema["exclusiveMaximum"]?.numberValue { high = min(high, Int(exclusive.rounded(.up)) - 1) }
        if schema["minimum"] == nil, schema["exclusiveMinimum"] == nil, high < low { low = high - 100 }
        guard low <= high else { return low }
        var value = Int.random(in: low...high, using: &self.generator)
        if let step = schema["multipleOf"]?.intValue, step > 0 {
            let rounded = (value / step) * step
            value = rounded >= low ? rounded : rounded + step
        }
        return value
    }

    private mutating func number(for schema: JSONValue) -> Double {
        var low = schema["minimum"]?.numberValue ?? 0
        var high = schema["maximum"]?.numberValue ?? max(low, 0) + 100
        if schema["minimum"] == nil, schema["maximum"] != nil, high < low { low = high - 100 }
        if let exclusive = schema["exclusiveMinimum"]?.numberValue { low = max(low, exclusive) }
        if let exclusive = schema["exclusiveMaximum"]?.numberValue { high = min(high, exclusive) }
        guard low < high else { return low }
        // Two decimals read like a model's number; stay strictly inside exclusive bounds.
        let value = (Double.random(in: low..<high, using: &self.generator) * 100).rounded() / 100
        return min(max(value, low), high) == value && value != schema["exclusiveMinimum"]?.numberValue
            && value != schema["exclusiveMaximum"]?.numberValue ? value : (low + high) / 2
    }
}
