import Foundation
import KilnJSON
import Testing

/// `JSONValue.decode(as:)` answers as `JSONDecoder` does on the document's JSON: the same value, or the same error.
@Suite struct JSONValueDecodingTests {
    struct Sample: Codable, Equatable {
        enum Mode: String, Codable { case fast, slow }
        struct Part: Codable, Equatable {
            var name: String
            var weight: Double?
        }
        var title: String
        var count: Int
        var small: UInt8
        var ratio: Double
        var flag: Bool
        var mode: Mode
        var tags: [String]
        var parts: [Part]
        var scores: [String: Int]
        var matrix: [[Int]]
        var note: String?
        var missing: Int?
        var extra: JSONValue
        var when: Date?
        var blob: Data?
    }

    static let sample = #"""
        {"title": "a \"quoted\" title é👋🏽", "count": -42, "small": 255, "ratio": 0.1, "flag": true, "mode": "slow",
         "tags": ["x", "y"], "parts": [{"name": "p", "weight": 2.5}, {"name": "q", "weight": null}, {"name": "r"}],
         "scores": {"a": 1, "b": 2}, "matrix": [[1, 2], [], [3]], "note": null, "extra": {"k": [1, "two", null, false]}}
        """#

    /// What `decode(as:)` and `JSONDecoder` make of `text`: a value, or the error as it reads.
    struct Outcome<T> {
        var value: T?
        var error: String?

        init(_ decode: () throws -> T) {
            do { value = try decode() } catch { self.error = "\(error)" }
        }
    }

    static func both<T: Decodable>(_ text: String, as type: T.Type) throws -> (Outcome<T>, reference: Outcome<T>) {
        let document = try #require(JSONValue.parse(text))
        return (
            Outcome { try document.decode(as: type) },
            Outcome { try JSONDecoder().decode(type, from: Data(document.canonicalJSON().utf8)) }
        )
    }

    @Test(arguments: [
        sample,
        // Dates and data, which JSONDecoder reads in its own ways.
        #"{"title": "t", "count": 1, "small": 0, "ratio": 1e300, "flag": false, "mode": "fast", "tags": [], "parts": [],"#
            + #" "scores": {}, "matrix": [], "extra": null, "when": 86400.5, "blob": "aGVsbG8="}"#,
    ])
    func aDocumentDecodesAsJSONDecoderDecodesItsJSON(text: String) throws {
        let (outcome, reference) = try Self.both(text, as: Sample.self)
        #expect(outcome.error == nil && reference.error == nil)
        #expect(outcome.value == reference.value)
    }

    @Test func theSampleReadsAsWritten() throws {
        let sample = try #require(JSONValue.parse(Self.sample)).decode(as: Sample.self)
        #expect(sample.title == "a \"quoted\" title é👋🏽" && sample.count == -42 && sample.small == 255 && sample.ratio == 0.1)
        #expect(sample.parts.map(\.weight) == [2.5, nil, nil] && sample.scores == ["a": 1, "b": 2] && sample.matrix == [[1, 2], [], [3]])
        #expect(sample.extra == .object(["k": .array([.number(1), .string("two"), .null, .bool(false)])]))
    }

    @Test(arguments: [
        // A member missing, a string where a number goes, deep in an array, a fraction and a number too large for an
        // integer, null where a value is required, an unknown enumeration value, a number past every integer type.
        #"{"count": 1}"#,
        #"{"title": "t", "count": "1", "small": 0}"#,
        #"{"title": "t", "count": 1, "small": 0, "ratio": 1, "flag": true, "mode": "fast", "tags": [], "parts": [{"name": 3}]}"#,
        #"{"title": "t", "count": 1.5, "small": 0}"#,
        #"{"title": "t", "count": 1, "small": 256}"#,
        #"{"title": null, "count": 1, "small": 0}"#,
        #"{"title": "t", "count": 1, "small": 0, "ratio": 1, "flag": true, "mode": "medium"}"#,
        #"{"title": "t", "count": 1e300, "small": 0}"#,
        #"[1, 2]"#,
    ])
    func aDocumentThatDoesNotFitFailsAsWithJSONDecoder(text: String) throws {
        let (outcome, reference) = try Self.both(text, as: Sample.self)
        #expect(outcome.value == nil && reference.value == nil)
        #expect(outcome.error != nil && outcome.error == reference.error)
    }
}
