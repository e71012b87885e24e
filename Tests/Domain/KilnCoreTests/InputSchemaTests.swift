import KilnCore
import KilnJSON
import Testing

/// A kind's input schema is read from its type's decoding, each way of reading a member alike.
@Suite struct InputSchemaTests {
    /// An input read by hand, every way an input's decoder reads: a member it must have, one it may leave out (asked
    /// of the container, or of Swift's own synthesised `decodeIfPresent`), a choice of words and one of numbers, a list of objects, and, once all
    /// are read, a check that a placeholder fails.
    struct Order: KindInput {
        enum Size: String, Codable, Sendable, InputChoice { case small, large }
        enum Copies: Int, CaseIterable, Codable, Sendable { case one = 1, two = 2 }

        struct Line: Codable, Sendable {
            let item: String
            let count: Int?
        }

        let lines: [Line]
        let size: Size
        let rush: Double?
        let gift: Bool
        let copies: Copies

        enum CodingKeys: String, CodingKey { case lines, size, rush, gift, copies }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            lines = try container.decode([Line].self, forKey: .lines)
            size = try container.decodeIfPresent(Size.self, forKey: .size) ?? .small
            rush = try container.decodeIfPresent(Double.self, forKey: .rush)
            gift = try container.decode(Bool.self, forKey: .gift)
            copies = try container.decode(Copies.self, forKey: .copies)
            guard rush.map({ $0 > 0 }) ?? true else {
                throw DecodingError.dataCorruptedError(forKey: .rush, in: container, debugDescription: "must be positive")
            }
        }
    }

    @Test func theSchemaIsWhatTheTypeDecodes() throws {
        let expected = try #require(
            JSONValue.parse(
                #"""
                {"type": "object", "required": ["copies", "gift", "lines"], "properties": {
                  "lines": {"type": "array", "items": {"type": "object", "required": ["item"],
                    "properties": {"item": {"type": "string"}, "count": {"type": ["integer", "null"]}}}},
                  "size": {"type": ["string", "null"], "enum": ["small", "large", null]},
                  "rush": {"type": ["number", "null"]},
                  "gift": {"type": "boolean"},
                  "copies": {"type": "integer", "enum": [1, 2]}}}
                """#))
        #expect(testKind(Order.self).inputSchema == expected, "\(testKind(Order.self).inputSchema.canonicalJSON())")
    }
}
