import Foundation
import KilnJSON

/// Where a JSON answer departs from an OpenAPI 3.1 schema of `document`: values of another JSON type or outside an
/// `enum`, `required` members missing, members a schema with `additionalProperties: false` does not name, and strings
/// that are not the `date-time` or `uuid` their `format` says. `$ref`s to the document's components are followed. Enough
/// of JSON Schema for the document's own schemas.
struct SchemaConformance {
    let document: JSONValue

    func departures(of value: JSONValue, from schema: JSONValue, at path: String = "$") -> [String] {
        let schema = resolved(schema)
        if let types = Self.allowedTypes(schema), !types.contains(Self.type(of: value)),
            !(types.contains("number") && Self.type(of: value) == "integer")
        {
            return ["\(path) is \(Self.type(of: value)), not \(types.sorted().joined(separator: " or "))"]
        }
        var found: [String] = []
        if let options = schema["enum"]?.arrayValue, !options.contains(value) {
            found.append("\(path) is \(value.canonicalJSON()), not one of \(JSONValue.array(options).canonicalJSON())")
        }
        if case .string(let text) = value, let format = schema["format"]?.stringValue, !Self.matches(text, format: format) {
            found.append("\(path) is not a \(format): \(text)")
        }
        if case .object(let fields) = value {
            var properties: [String: JSONValue] = [:]
            if case .object(let named)? = schema["properties"] { properties = named }
            for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where fields[name] == nil {
                found.append("\(path).\(name) is missing")
            }
            for (name, field) in fields.sorted(by: { $0.key < $1.key }) {
                if let property = properties[name] {
                    found += departures(of: field, from: property, at: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"] {
                    if additional == .bool(false) {
                        found.append("\(path).\(name) is not in the schema")
                    } else if case .object = additional {
                        found += departures(of: field, from: additional, at: "\(path).\(name)")
                    }
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

    /// The schema a `$ref` (`#/components/…`) points at, or the schema itself.
    func resolved(_ schema: JSONValue) -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue, reference.hasPrefix("#/") else { return schema }
        let target = reference.dropFirst(2).split(separator: "/").reduce(document as JSONValue?) { node, name in node?[String(name)] }
        return target.map(resolved) ?? .null
    }

    private static func matches(_ text: String, format: String) -> Bool {
        switch format {
        case "date-time":
            (try? Date.ISO8601FormatStyle().parse(text)) != nil
                || (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)) != nil
        case "uuid": UUID(uuidString: text) != nil
        default: true
        }
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
