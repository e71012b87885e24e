import KilnJSON

/// JSON Schema fragments in the form every provider's structured output accepts: OpenAI's strict mode wants every
/// object closed (`additionalProperties: false`) with all its properties required, so optional values are not
/// expressed as absent properties but as empty strings or lists.
enum Schema {
    /// The schema as providers get it: string lengths, which strict structured-output modes do not all accept, become
    /// words in the description (`"1–120 characters."`), which a model reads. Kiln checks the whole schema.
    static func portable(_ schema: JSONValue) -> JSONValue {
        switch schema {
        case .array(let elements):
            return .array(elements.map(portable))
        case .object(var fields):
            let minimum = fields.removeValue(forKey: "minLength")?.intValue
            let maximum = fields.removeValue(forKey: "maxLength")?.intValue
            for (key, value) in fields where key != "enum" { fields[key] = portable(value) }
            if let maximum {
                let length = "\(minimum ?? 0)–\(maximum) characters."
                fields["description"] = .string(fields["description"]?.stringValue.map { "\($0) \(length)" } ?? length)
            }
            return .object(fields)
        case .null, .bool, .number, .string:
            return schema
        }
    }

    /// A closed object whose properties are all required.
    static func object(_ properties: [String: JSONValue]) -> JSONValue {
        .object([
            "type": "object", "additionalProperties": false, "properties": .object(properties),
            "required": .array(properties.keys.sorted().map(JSONValue.string)),
        ])
    }

    static func array(of items: JSONValue, count: ClosedRange<Int>) -> JSONValue {
        .object(["type": "array", "items": items, "minItems": .number(Double(count.lowerBound)), "maxItems": .number(Double(count.upperBound))])
    }

    /// A string; `description` tells the model (and the simulator) what to write, e.g. "80–200 words of prose".
    static func string(length: ClosedRange<Int>? = nil, description: String? = nil) -> JSONValue {
        var fields: [String: JSONValue] = ["type": "string"]
        if let length {
            fields["minLength"] = .number(Double(length.lowerBound))
            fields["maxLength"] = .number(Double(length.upperBound))
        }
        if let description { fields["description"] = .string(description) }
        return .object(fields)
    }

    static func integer(_ range: ClosedRange<Int>) -> JSONValue {
        .object(["type": "integer", "minimum": .number(Double(range.lowerBound)), "maximum": .number(Double(range.upperBound))])
    }

    /// One of `values`.
    static func oneOf(_ values: [String]) -> JSONValue {
        .object(["type": "string", "enum": .array(values.map(JSONValue.string))])
    }

    /// Talevonia's node tags: one to five short lowercase words.
    static let tags = array(of: string(length: 1...30), count: 1...5)
    /// A node's one-line summary.
    static let summary = string(length: 1...120, description: "One line saying what happens.")
}
