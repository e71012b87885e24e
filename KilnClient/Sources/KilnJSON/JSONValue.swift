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
            if let integer = Self.exactInteger(value) {
                try container.encode(integer)
            } else {
                try container.encode(value)
            }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Compact JSON with sorted keys: equal documents give equal bytes, so they hash alike. Written by hand, as UTF-8
    /// bytes with unescaped runs copied whole, not appended to a String scalar by scalar: it is on every request's path,
    /// and JSONEncoder costs several times as much.
    public func canonicalJSON() -> String {
        String(decoding: canonicalBytes(), as: UTF8.self)
    }

    /// ``canonicalJSON()`` as UTF-8 bytes, for a caller that sends them.
    public func canonicalBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        write(into: &bytes)
        return bytes
    }

    /// ``canonicalBytes()`` of the object with these members (their keys distinct), without making its dictionary: for
    /// the answers written on every request, where hashing each key into a dictionary, and growing it, cost more than
    /// writing the object.
    public static func canonicalBytes(ofObject members: [(key: String, value: JSONValue)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(members.sorted { $0.key < $1.key }, into: &bytes)
        return bytes
    }

    /// ``canonicalBytes(ofObject:)`` as text, as ``canonicalJSON()`` is ``canonicalBytes()``.
    public static func canonicalJSON(ofObject members: [(key: String, value: JSONValue)]) -> String {
        String(decoding: canonicalBytes(ofObject: members), as: UTF8.self)
    }

    private func write(into bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value):
            if let integer = Self.exactInteger(value) {
                bytes.append(contentsOf: String(integer).utf8)
            } else {
                bytes.append(contentsOf: String(value).utf8)
            }
        case .string(let value): Self.write(value, into: &bytes)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(into: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            // The members sorted once, values and all: sorting the keys and looking each one up hashed it again.
            Self.write(fields.sorted(by: { $0.key < $1.key }), into: &bytes)
        }
    }

    /// An object of members already in key order.
    private static func write(_ sortedMembers: [(key: String, value: JSONValue)], into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        for (index, member) in sortedMembers.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            write(member.key, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            member.value.write(into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// The integer a number is, when it is one that a `Double` holds exactly (up to 2^53, as JavaScript's numbers):
    /// integral numbers are written without a fraction, so ids, counts and microsecond times (`started_at_us`, about
    /// 1.8e15) read back as they were sent.
    private static func exactInteger(_ value: Double) -> Int64? {
        value.rounded() == value && abs(value) <= 0x1p53 ? Int64(value) : nil
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else as it is.
    private static func write(_ string: String, into bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: utf8[runStart..<index])
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = String(byte, radix: 16)
                    bytes.append(contentsOf: #"\u"#.utf8)
                    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: 4 - hex.utf8.count))
                    bytes.append(contentsOf: hex.utf8)
                }
            }
            bytes.append(contentsOf: utf8[runStart...])
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// How deep ``parse(_:)`` reads arrays and objects nested in each other.
    public static var maxDepth: Int { JSONParser.maxDepth }

    /// Parses JSON text; nil when it is not JSON, or nested deeper than ``maxDepth``.
    public static func parse(_ text: String) -> JSONValue? {
        var text = text
        return text.withUTF8 { JSONParser.parse($0) }
    }

    /// Decodes this document into a typed value: as `JSONDecoder` decodes the document's JSON, value and errors alike.
    /// Straight from the value when ``JSONValueDecoder`` can; `JSONDecoder` decides whatever it leaves, every failure
    /// among them.
    public func decode<T: Decodable>(as type: T.Type) throws -> T {
        if let value = try? JSONValueDecoder.decode(self, as: type, codingPath: []) { return value }
        return try Self.decoder.decode(type, from: Data(canonicalBytes()))
    }

    /// One decoder for every input: it holds no state between calls, and making one for each input allocated its
    /// options and their lock every time.
    private static let decoder = JSONDecoder()

    public subscript(key: String) -> JSONValue? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }
}
