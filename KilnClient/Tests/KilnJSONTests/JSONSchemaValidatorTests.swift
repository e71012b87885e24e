import KilnJSON
import Testing

@Suite struct JSONSchemaValidatorTests {
    static func json(_ text: String) throws -> JSONValue {
        try #require(JSONValue.parse(text), "not JSON: \(text)")
    }

    static let schema = #"""
        {"type": "object", "additionalProperties": false, "required": ["title", "tags", "scenes", "mood"],
         "properties": {
           "title": {"type": "string", "minLength": 2, "maxLength": 10},
           "tags": {"type": "array", "minItems": 1, "maxItems": 2, "items": {"type": "string"}},
           "scenes": {"type": "array", "items": {"type": "object", "required": ["number"],
                      "properties": {"number": {"type": "integer", "minimum": 1, "maximum": 99}}}},
           "mood": {"enum": ["calm", "tense"]},
           "note": {"type": ["string", "null"]}
         }}
        """#

    @Test func aValidDocumentHasNoViolations() throws {
        let validator = JSONSchemaValidator(schema: try Self.json(Self.schema))
        let document = try Self.json(#"{"title": "Dusk", "tags": ["a"], "scenes": [{"number": 1}, {"number": 99.0}], "mood": "calm", "note": null}"#)
        #expect(validator.violations(of: document).isEmpty)
    }

    @Test(arguments: [
        (#"{"tags": ["a"], "scenes": [], "mood": "calm"}"#, "$.title is required"),
        (#"{"title": "D", "tags": ["a"], "scenes": [], "mood": "calm"}"#, "$.title must be at least 2 characters long, not 1"),
        (#"{"title": "Dusk at the harbour", "tags": ["a"], "scenes": [], "mood": "calm"}"#, "$.title must be at most 10 characters long, not 19"),
        (#"{"title": "Dusk", "tags": [], "scenes": [], "mood": "calm"}"#, "$.tags must hold at least 1 items, not 0"),
        (#"{"title": "Dusk", "tags": ["a", "b", "c"], "scenes": [], "mood": "calm"}"#, "$.tags must hold at most 2 items, not 3"),
        (#"{"title": "Dusk", "tags": [1], "scenes": [], "mood": "calm"}"#, "$.tags[0] must be of type string, not number"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [{"number": 1.5}], "mood": "calm"}"#, "$.scenes[0].number must be of type integer, not number"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [{"number": 0}], "mood": "calm"}"#, "$.scenes[0].number must be at least 1, not 0"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [{"number": 100}], "mood": "calm"}"#, "$.scenes[0].number must be at most 99, not 100"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [{}], "mood": "calm"}"#, "$.scenes[0].number is required"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [], "mood": "angry"}"#, #"$.mood must be one of "calm", "tense""#),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [], "mood": "calm", "extra": 1}"#, "$.extra is not an allowed property"),
        (#"{"title": "Dusk", "tags": ["a"], "scenes": [], "mood": "calm", "note": 3}"#, "$.note must be of type string or null, not number"),
        (#"[]"#, "$ must be of type object, not array"),
    ])
    func eachViolationIsReportedWithItsPath(document: String, expected: String) throws {
        let validator = JSONSchemaValidator(schema: try Self.json(Self.schema))
        let violations = validator.violations(of: try Self.json(document)).map(\.description)
        #expect(violations == [expected])
    }

    @Test func lengthsCountCharactersAsAReaderDoes() throws {
        let validator = JSONSchemaValidator(schema: try Self.json(#"{"type": "string", "maxLength": 2}"#))
        #expect(validator.violations(of: .string("👩‍👩‍👧é")).isEmpty, "two grapheme clusters, many more bytes and scalars")
    }

    @Test func anyOfAcceptsAnyBranchAndExplainsTheClosestOneOtherwise() throws {
        let validator = JSONSchemaValidator(
            schema: try Self.json(
                #"""
                {"anyOf": [
                  {"type": "object", "properties": {"status": {"enum": ["none"]}, "who": {"type": "array", "maxItems": 0}}},
                  {"type": "object", "properties": {"status": {"enum": ["started"]}, "who": {"type": "array", "minItems": 1}}}
                ]}
                """#))
        #expect(validator.violations(of: try Self.json(#"{"status": "none", "who": []}"#)).isEmpty)
        #expect(validator.violations(of: try Self.json(#"{"status": "started", "who": ["x"]}"#)).isEmpty)
        let violations = validator.violations(of: try Self.json(#"{"status": "started", "who": []}"#)).map(\.description)
        #expect(violations == ["$ matches none of the 2 allowed shapes", "$.who must hold at least 1 items, not 0"])
    }
}
