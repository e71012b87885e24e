import Foundation
import KilnJSON
import Testing

@testable import KilnClient

/// The client against `openapi.json`, the server's description (which the API's tests hold to the routes): every
/// route the client calls is there with its method and the statuses the client reads as success, every other status
/// it may get is a problem (which ``KilnError`` reads), and every answer the document describes decodes as the
/// client's type.
@Suite struct OpenAPIAgreementTests {
    static let document: JSONValue = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Sources/Edges/KilnAPI/openapi.json")
        return (try? Data(contentsOf: url)).flatMap { JSONValue.parse(String(decoding: $0, as: UTF8.self)) } ?? .null
    }()

    static func operation(_ route: Route) -> JSONValue? {
        document["paths"]?[route.template]?[route.method.lowercased()]
    }

    @Test(arguments: Route.all)
    func theRouteIsInTheDocumentWithItsSuccessAndProblems(route: Route) throws {
        let operation = try #require(Self.operation(route), "\(route) is not in openapi.json")
        let responses = try #require(operation["responses"]?.members)
        for status in route.success {
            #expect(responses["\(status)"] != nil, "\(route) answers \(status) in the client, not in the document")
        }
        for (status, response) in responses where !route.success.contains(Int(status) ?? 0) {
            #expect(response["$ref"]?.stringValue == "#/components/responses/Problem", "\(route)'s \(status) is not a problem")
        }
    }

    /// The answer schema of `route`'s `status`.
    static func answerSchema(_ route: Route, _ status: Int) throws -> JSONValue {
        var response = try #require(operation(route)?["responses"]?["\(status)"])
        if let reference = response["$ref"]?.stringValue, let name = reference.split(separator: "/").last {
            response = try #require(document["components"]?["responses"]?[String(name)])
        }
        let content = try #require(response["content"]?["application/json"] ?? response["content"]?["application/problem+json"])
        return try resolve(try #require(content["schema"]))
    }

    static func resolve(_ schema: JSONValue) throws -> JSONValue {
        guard let reference = schema["$ref"]?.stringValue else { return schema }
        let name = try #require(reference.split(separator: "/").last.map(String.init))
        return try #require(document["components"]?["schemas"]?[name])
    }

    /// A value with every property the schema lists, each of its type (the first of an enum; `null` where allowed or
    /// untyped), so decoding it proves the client's type reads every member the server writes by its name and type.
    static func sample(of schema: JSONValue) throws -> JSONValue {
        let schema = try resolve(schema)
        if let choices = schema["enum"]?.arrayValue, let first = choices.first { return first }
        let types: [String] = schema["type"]?.arrayValue?.compactMap(\.stringValue) ?? schema["type"]?.stringValue.map { [$0] } ?? []
        switch types.first(where: { $0 != "null" }) {
        case "object":
            var members: [String: JSONValue] = [:]
            for (name, property) in schema["properties"]?.members ?? [:] { members[name] = try sample(of: property) }
            if let additional = schema["additionalProperties"], additional.members != nil { members["text"] = try sample(of: additional) }
            return .object(members)
        case "array": return .array([try sample(of: schema["items"] ?? .null)])
        case "integer": return .number(3)
        case "number": return .number(0.5)
        case "boolean": return .bool(true)
        case "string":
            switch schema["format"]?.stringValue {
            case "uuid": return .string("0b7c8a52-3f0e-4c36-9d0e-8f1c2a4b5d6e")
            case "date-time": return .string("2026-11-23T08:00:00Z")
            default: return .string("text")
            }
        default: return .null
        }
    }

    static func decodes<Answer: Decodable>(_ type: Answer.Type, _ route: Route, _ status: Int) throws {
        let sample = try sample(of: try answerSchema(route, status))
        #expect(throws: Never.self, "\(route) \(status): \(sample.canonicalJSON())") {
            try JSONDecoder().decode(Answer.self, from: Data(sample.canonicalJSON().utf8))
        }
    }

    @Test func everyAnswerTheDocumentDescribesDecodesAsTheClientsType() throws {
        try Self.decodes(Job<StoryPassage>.self, .submit, 202)
        try Self.decodes(Job<StoryPassage>.self, .job, 200)
        try Self.decodes(Job<StoryPassage>.self, .cancel, 202)
        try Self.decodes(Upload.self, .upload, 201)
        try Self.decodes(Quota.self, .quota, 200)
        try Self.decodes(Partnership.Invitation.self, .invite, 201)
        try Self.decodes(Partnership.Redemption.self, .redeem, 202)
        try Self.decodes(Partnership.Accepted.self, .accept, 201)
        try Self.decodes(Partnership.Link.self, .partner, 200)
        try Self.decodes(Partnership.Unlinked.self, .unlink, 200)
        try Self.decodes(Erasure.self, .erase, 200)
        try Self.decodes(Erasure.self, .erase, 202)
        try Self.decodes(KilnError.Problem.self, .submit, 429)
    }

    /// What the client sends as a submission is what the document's `Submission` schema accepts.
    @Test func theSubmissionTheClientSendsIsTheDocumentsSubmission() throws {
        let request = try #require(Self.operation(.submit)?["requestBody"]?["content"]?["application/json"]?["schema"])
        let schema = try Self.resolve(request)
        let properties = Set(try #require(schema["properties"]?.members).keys)
        #expect(properties.isSuperset(of: ["kind", "input", "priority"]))
        let headers = Self.operation(.submit)?["parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(headers.contains("Idempotency-Key"))
        let eventHeaders = Self.operation(.events)?["parameters"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(eventHeaders.contains("Last-Event-ID"))
    }
}

extension JSONValue {
    fileprivate var members: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }
}
