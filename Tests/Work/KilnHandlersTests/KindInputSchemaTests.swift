import Foundation
import KilnCore
import KilnHandlers
import KilnJSON
import Testing

/// Each kind's input as `openapi.json` describes it, held to what the API admits. The document's schema of each kind is
/// the one its input type decodes (``JobKind/inputSchema``); a valid input of each kind passes the schema and is
/// admitted, and the same input with a required member removed or null, or any member of the wrong type, at any depth,
/// is refused by both, the admission naming the field the schema names. So a client that checks its input against the
/// document learns before sending it what the API would refuse for its shape.
@Suite struct KindInputSchemaTests {
    static let document: JSONValue = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let url = root.appendingPathComponent("Sources/Edges/KilnAPI/openapi.json")
        return (try? Data(contentsOf: url)).flatMap { JSONValue.parse(String(decoding: $0, as: UTF8.self)) } ?? .null
    }()

    /// The document's submission schema of each kind, by kind, as `Submission`'s discriminator maps them.
    static func submissions() throws -> [String: JSONValue] {
        let mapping = try #require(document["components"]?["schemas"]?["Submission"]?["discriminator"]?["mapping"]?.objectMembers)
        return try mapping.mapValues { try schema(at: try #require($0.stringValue)) }
    }

    /// The schema `reference` (`#/components/schemas/…`) names.
    static func schema(at reference: String) throws -> JSONValue {
        let name = try #require(reference.split(separator: "/").last.map(String.init), "\(reference)")
        return try #require(document["components"]?["schemas"]?[name], "\(reference) names no schema")
    }

    /// The document's schema of `kind`'s input.
    static func inputSchema(_ kind: String) throws -> JSONValue {
        let submission = try #require(try submissions()[kind], "openapi.json has no submission of \(kind)")
        return try schema(at: try #require(submission["properties"]?["input"]?["$ref"]?.stringValue))
    }

    @Test func theDocumentDescribesEachKindsInputAsItsTypeDecodesIt() throws {
        let submission = try #require(Self.document["components"]?["schemas"]?["Submission"])
        let submissions = try Self.submissions()
        #expect(submissions.keys.sorted() == KindDefinition.catalog.names)
        let mapped = Set(try #require(submission["discriminator"]?["mapping"]?.objectMembers).values)
        let listed = Set(try #require(submission["oneOf"]?.arrayValue))
        #expect(listed == Set(mapped.map { JSONValue.object(["$ref": $0]) }), "Submission's oneOf lists each kind's submission once")
        for definition in KindDefinition.all {
            let kind = definition.kind
            let variant = try #require(submissions[kind.name])
            #expect(variant["properties"]?["kind"]?["const"] == .string(kind.name))
            #expect(variant["required"] == .array(["kind", "input"]))
            let documented = try Self.inputSchema(kind.name).canonicalJSON()
            #expect(documented == kind.inputSchema.canonicalJSON(), "openapi.json describes \(kind.name)'s input as its type decodes it")
        }
    }

    /// The example: a share published with nothing is refused for its story, which the document requires.
    @Test func aShareToPublishWithoutAStoryIsRefusedAsTheDocumentSays() throws {
        let schema = JSONSchemaValidator(schema: try Self.inputSchema("share.publish"))
        #expect(schema.violations(of: .object([:])) == [OutputViolation(path: "$.story", reason: "is required")])
        let kind = try #require(KindDefinition.catalog["share.publish"])
        let error = #expect(throws: InputError.self) { try kind.admit(.object([:])) }
        #expect(error?.field == "input.story")
        #expect(error?.reason == "is required")
    }

    @Test(arguments: KindInputSamples.all)
    func aValidInputIsAdmittedAndEachBrokenOneRefusedNamingItsField(sample: KindInputSamples.Sample) throws {
        let kind = try #require(KindDefinition.catalog[sample.kind])
        let schema = try Self.inputSchema(sample.kind)
        let validator = JSONSchemaValidator(schema: schema)
        let input = try #require(JSONValue.parse(sample.input), "\(sample) is JSON")
        #expect(validator.violations(of: input) == [], "\(sample)")
        #expect(throws: Never.self, "\(sample)") { try kind.admit(input) }

        for breakage in try Self.breakages(of: input, schema: schema, at: "$", rebuild: { $0 }) {
            let violations = validator.violations(of: breakage.input)
            let field = "input" + breakage.path.dropFirst()
            guard breakage.isRefused else {
                // An optional member left out: the schema accepts it, and admission, if it refuses (`document.export`
                // takes one of two members), does not for want of that member.
                #expect(violations == [], "\(sample.kind), \(breakage)")
                do throws(InputError) {
                    _ = try kind.admit(breakage.input)
                } catch {
                    #expect(error.field != field, "\(sample.kind), \(breakage): admission requires what the schema leaves optional")
                }
                continue
            }
            #expect(violations.map(\.path).contains(breakage.path), "\(sample.kind), \(breakage): the schema finds \(violations)")
            let error = #expect(throws: InputError.self, "\(sample.kind), \(breakage)") { try kind.admit(breakage.input) }
            #expect(error?.field == field, "\(sample.kind), \(breakage): \(String(describing: error))")
        }
    }

    @Test func theSamplesHoldEveryMemberOfEveryKindsInput() throws {
        #expect(Set(KindInputSamples.all.map(\.kind)) == Set(KindDefinition.catalog.names))
        for kind in KindDefinition.catalog.names {
            let samples = KindInputSamples.all.filter { $0.kind == kind }.compactMap { JSONValue.parse($0.input) }
            let held = samples.reduce(into: Set<String>()) { $0.formUnion(Self.members(heldBy: $1, at: "$")) }
            let unheld = Self.members(named: try Self.inputSchema(kind), at: "$").subtracting(held)
            #expect(unheld.isEmpty, "\(kind)'s samples leave out \(unheld.sorted()), which are then never broken")
        }
    }

    /// One input changed in one place.
    struct Breakage: CustomStringConvertible {
        /// Where, as the schema's violations say it: `$.story.nodes[0].text`.
        let path: String
        let change: String
        let input: JSONValue
        /// Whether the schema refuses the change: all but an optional member left out or null.
        let isRefused: Bool

        var description: String { "\(path) \(change)" }
    }

    /// Every input made from `value` by removing one member or making it null, or by giving one member (or an array's
    /// first element) a value of another type; `rebuild` puts a changed `value` back into the whole input.
    static func breakages(
        of value: JSONValue, schema: JSONValue, at path: String, rebuild: (JSONValue) -> JSONValue
    ) throws -> [Breakage] {
        var found: [Breakage] = []
        switch value {
        case .object(let members):
            let required = Set(schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let memberPath = "\(path).\(name)"
                let memberSchema = try #require(schema["properties"]?[name], "the schema names \(memberPath)")
                func replaced(_ new: JSONValue?) -> JSONValue {
                    var changed = members
                    changed[name] = new
                    return rebuild(.object(changed))
                }
                let isRequired = required.contains(name)
                found.append(Breakage(path: memberPath, change: "left out", input: replaced(nil), isRefused: isRequired))
                found.append(Breakage(path: memberPath, change: "null", input: replaced(.null), isRefused: isRequired))
                let wrong = wrongValue(for: memberSchema)
                found.append(Breakage(path: memberPath, change: "as \(wrong.canonicalJSON())", input: replaced(wrong), isRefused: true))
                found += try breakages(of: member, schema: memberSchema, at: memberPath) { replaced($0) }
            }
        case .array(let elements) where !elements.isEmpty:
            let elementPath = "\(path)[0]"
            let elementSchema = try #require(schema["items"], "the schema names \(elementPath)")
            func replaced(_ new: JSONValue) -> JSONValue { rebuild(.array([new] + elements.dropFirst())) }
            let wrong = wrongValue(for: elementSchema)
            found.append(Breakage(path: elementPath, change: "as \(wrong.canonicalJSON())", input: replaced(wrong), isRefused: true))
            found += try breakages(of: elements[0], schema: elementSchema, at: elementPath) { replaced($0) }
        default:
            break
        }
        return found
    }

    /// A value the schema refuses: a word or number that is not one of its choices, or a value of another type.
    static func wrongValue(for schema: JSONValue) -> JSONValue {
        if let choices = schema["enum"]?.arrayValue {
            let numbers = choices.compactMap(\.numberValue)
            return numbers.max().map { .number($0 + 1) } ?? .string("no-such-choice")
        }
        let type = schema["type"]?.stringValue ?? schema["type"]?.arrayValue?.first?.stringValue
        return type == "string" ? .number(7) : .string("seven")
    }

    /// The paths of every member `schema` names, with `[]` for an array's elements.
    static func members(named schema: JSONValue, at path: String) -> Set<String> {
        var paths: Set<String> = []
        for (name, member) in schema["properties"]?.objectMembers ?? [:] {
            paths.insert("\(path).\(name)")
            paths.formUnion(members(named: member, at: "\(path).\(name)"))
        }
        if let element = schema["items"] { paths.formUnion(members(named: element, at: "\(path)[]")) }
        return paths
    }

    /// The paths of every member `value` holds, with `[]` for an array's elements.
    static func members(heldBy value: JSONValue, at path: String) -> Set<String> {
        var paths: Set<String> = []
        for (name, member) in value.objectMembers ?? [:] {
            paths.insert("\(path).\(name)")
            paths.formUnion(members(heldBy: member, at: "\(path).\(name)"))
        }
        for element in value.arrayValue ?? [] { paths.formUnion(members(heldBy: element, at: "\(path)[]")) }
        return paths
    }
}

extension JSONValue {
    fileprivate var objectMembers: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
