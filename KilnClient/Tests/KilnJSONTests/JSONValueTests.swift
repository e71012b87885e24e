import Foundation
import KilnJSON
import Testing

@Suite struct JSONValueTests {
    @Test func canonicalJSONIgnoresKeyOrder() throws {
        let first = try #require(JSONValue.parse(#"{"b":1,"a":[true,null,"x"]}"#))
        let second = try #require(JSONValue.parse(#"{"a":[true,null,"x"],"b":1}"#))
        #expect(first.canonicalJSON() == second.canonicalJSON())
        #expect(first.canonicalJSON() == #"{"a":[true,null,"x"],"b":1}"#)
    }

    @Test func anObjectGivenAsMembersIsWrittenAsItsDocument() {
        let members: [(key: String, value: JSONValue)] = [
            ("type", "https://kiln.dev/problems/daily_quota_exhausted"), ("status", 429), ("limit", .null), ("a_b", true),
            ("aa", .array([1, "x"])), ("Z", .object(["y": 2, "x": 1])), ("é", "ü \"quoted\""), ("", .number(0.5)),
        ]
        for order in [members, members.reversed(), members.shuffled()] {
            #expect(JSONValue.canonicalBytes(ofObject: order) == JSONValue.object(Dictionary(uniqueKeysWithValues: members)).canonicalBytes())
        }
        #expect(JSONValue.canonicalBytes(ofObject: []) == Array("{}".utf8))
    }

    @Test(arguments: [
        #""quote \" backslash \\ newline \n tab \t bell \u0007 slash / é 👋🏽 עברית""#,
        #"[0, -1, 2.5, 1e-7, 123456789012, true, false, null, {}, []]"#,
        #"{"nested":{"list":[{"k":"v"}],"empty":""}}"#,
    ])
    func canonicalJSONIsValidAndRoundTrips(text: String) throws {
        let value = try #require(JSONValue.parse(text))
        let written = value.canonicalJSON()
        // Foundation's parser agrees with ours on what was written.
        _ = try JSONSerialization.jsonObject(with: Data(written.utf8), options: [.fragmentsAllowed])
        #expect(JSONValue.parse(written) == value)
        #expect(JSONValue.parse(written)?.canonicalJSON() == written)
    }

    @Test func integersADoubleHoldsExactlyAreWrittenAsIntegers() throws {
        let value = try #require(JSONValue.parse(#"{"started_at_us":1790000000123456,"big":9007199254740992,"half":0.5}"#))
        let expected = #"{"big":9007199254740992,"half":0.5,"started_at_us":1790000000123456}"#
        #expect(value.canonicalJSON() == expected)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(String(decoding: try encoder.encode(value), as: UTF8.self) == expected)
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONValue.string("a\u{1}b\"c").canonicalJSON() == #""a\u0001b\"c""#)
    }
}

/// The hand-written reader against Foundation's decoder, which it replaced: the same value for every valid
/// document; and `nil` for every invalid one, trailing commas included (which Foundation lets through).
@Suite struct JSONParserTests {
    static func foundation(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    @Test(arguments: [
        #"  {"a" : [1, -0, 0.5, -12.75e+3, 1E2, 3e-2], "b": {"c": null, "d": [true, false]}, "e": "", "f": []}  "#,
        #""\u00e9\u4e2d\ud83d\udc4b \/ \b\f\n\r\t \" \\""#,
        #"[[[[[]]]]]"#, "123", "-1.5", "true", "null", "\t[\n1\r]\n",
        #"{"text_delta":{"type":"text_delta","text":" the"},"index":0,"type":"content_block_delta"}"#,
    ])
    func validDocumentsReadAsFoundationReadsThem(text: String) throws {
        let ours = try #require(JSONValue.parse(text))
        #expect(ours == Self.foundation(text))
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", #"{"a":1,}"#, "01", "1.", ".5", "-", "1e", "+1", "NaN", "tru", "nul", #"{"a" 1}"#, #"{a:1}"#,
        "[1] [2]", #""unterminated"#, "\"tab\there\"", #""\x""#, #""\ud83d""#, #""\udc4b""#, #""\u12G4""#, "'single'",
    ])
    func invalidDocumentsAreRefused(text: String) {
        #expect(JSONValue.parse(text) == nil)
    }

    @Test func aRepeatedKeyKeepsItsLastValue() {
        #expect(JSONValue.parse(#"{"dup": 1, "dup": 2}"#) == .object(["dup": .number(2)]))
    }

    @Test func nestingDeeperThanTheLimitIsRefusedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(JSONValue.parse(deep) == nil)
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        #expect(JSONValue.parse(fine) != nil)
    }

    @Test func randomDocumentsRoundTrip() {
        var generator = SystemRandomNumberGenerator()
        func document(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) / 64)
            case 3:
                let scalars = (0..<Int.random(in: 0...8, using: &generator)).compactMap { _ in
                    Unicode.Scalar(
                        UInt32.random(in: [0x01...0x7F, 0xA0...0xD7FF, 0x1F300...0x1F5FF].randomElement(using: &generator) ?? 0x41...0x41))
                }
                return .string(String(String.UnicodeScalarView(scalars)))
            case 4: return .array((0..<Int.random(in: 0...4, using: &generator)).map { _ in document(depth + 1) })
            default:
                return .object(
                    Dictionary((0..<Int.random(in: 0...4, using: &generator)).map { ("k\($0)", document(depth + 1)) }, uniquingKeysWith: { $1 }))
            }
        }
        for _ in 0..<500 {
            let value = document(0)
            let text = value.canonicalJSON()
            #expect(JSONValue.parse(text) == value, "\(text)")
        }
    }

    /// What a worker checks before writing a result to PostgreSQL, which cannot hold U+0000.
    @Test(arguments: [
        (#"{"a": "x\u0000y"}"#, true), (#"\u000\u0000"#, true), (#"\\u0000"#, true), (#"{"a": "\u0001"}"#, false),
        (#"\u000"#, false), ("", false), (#"{"a": "u0000"}"#, false),
    ])
    func anEscapedNULIsFoundInJSONText(text: String, holdsOne: Bool) {
        #expect(text.containsEscapedNUL == holdsOne)
        #expect(text.containsEscapedNUL == text.contains(#"\u0000"#))
    }
}
