import KilnCore
import KilnJSON

/// Where a JSON answer departs from an OpenAPI 3.1 schema: fields the answer has that the schema does not name, fields
/// it lacks (the schema's `required` ones, or every one it names when it lists none), and values of another JSON type.
/// Enough of JSON Schema for the document's own schemas.
enum SchemaConformance {
    static func departures(of value: JSONValue, from schema: JSONValue, at path: String = "$") -> [String] {
        var found: [String] = []
        if let types = allowedTypes(schema), !types.contains(type(of: value)), !(types.contains("number") && type(of: value) == "integer") {
            return ["\(path) is \(type(of: value)), not \(types.sorted().joined(separator: " or "))"]
        }
        if case .object(let fields) = value, case .object(let properties)? = schema["properties"] {
            for name in fields.keys.sorted() where properties[name] == nil { found.append("\(path).\(name) is not in the schema") }
            let required = schema["required"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) } ?? Set(properties.keys)
            for (name, property) in properties.sorted(by: { $0.key < $1.key }) {
                if let field = fields[name] {
                    found += departures(of: field, from: property, at: "\(path).\(name)")
                } else if required.contains(name) {
                    found.append("\(path).\(name) is missing")
                }
            }
        }
        if case .array(let items) = value, let itemSchema = schema["items"] {
            for (index, item) in items.enumerated() {
                found += departures(of: item, from: itemSchema, at: "\(path)[\(index)]")
            }
        }
        return found
    }

    private static func allowedTypes(_ schema: JSONValue) -> Set<String>? {
        switch schema["type"] {
        case .string(let type)?: [type]
        case .array(let types)?: Set(types.compactMap(\.stringValue))
        default: nil
        }
    }

    private static func type(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number(let number): number.rounded() == number ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}
