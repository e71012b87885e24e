import Foundation

/// Any JSON document, kept as a value so inputs and results can be validated, hashed and stored verbatim.
public enum JSONValue: Sendable, Hashable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        // Containers first: a failed attempt costs a thrown error, and objects are what requests are made of.
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var fields: [String: JSONValue] = [:]
            fields.reserveCapacity(container.allKeys.count)
            for key in container.allKeys { fields[key.stringValue] = try container.decode(JSONValue.self, forKey: key) }
            self = .object(fields)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else {
                self = .bool(try container.decode(Bool.self))
            }
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // Integral numbers are written without a fraction so ids and counts read back as they were sent.
            if value.rounded() == value, abs(value) < 1e15 {
                try container.encode(Int64(value))
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON with sorted keys: equal documents give equal bytes, so they hash alike. Written by hand: it is
    /// on every request's path, and JSONEncoder costs several times as much.
    public func canonicalJSON() -> String {
        var text = ""
        write(into: &text)
        return text
    }

    private func write(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .number(let value):
            // Integral numbers are written without a fraction so ids and counts read back as they were sent.
            if value.rounded() == value, abs(value) < 1e15 { text += String(Int64(value)) } else { text += String(value) }
        case .string(let value): Self.write(value, into: &text)
        case .array(let elements):
            text += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { text += "," }
                element.write(into: &text)
            }
            text += "]"
        case .object(let fields):
            text += "{"
            for (index, key) in fields.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                Self.write(key, into: &text)
                text += ":"
                fields[key]?.write(into: &text)
            }
            text += "}"
        }
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else as it is.
    private static func write(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }

    /// How deep ``parse(_:)`` reads arrays and objects nested in each other.
    public static var maxDepth: Int { JSONParser.maxDepth }

    /// Parses JSON text; nil when it is not JSON, or nested deeper than ``maxDepth``.
    public static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { JSONParser.parse($0) }
    }

    /// Decodes this document into a typed value.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: Data(canonicalJSON().utf8))
    }

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}
