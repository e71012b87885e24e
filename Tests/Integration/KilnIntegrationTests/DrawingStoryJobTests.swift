import CurlClient
import Foundation
import KilnCore
import KilnJSON
import Testing

/// Joanie's kinds end to end: drawings uploaded over HTTP, a story made from them by a worker against the provider
/// simulator, every drawing placed in it; a new chapter placed after the earlier paragraphs.
@Suite struct DrawingStoryJobTests {
    /// Uploads `count` small images as the client's identity and returns their ids.
    static func uploadDrawings(_ count: Int, harness: Harness, client: Harness.Client) async throws -> [String] {
        var ids: [String] = []
        for index in 0..<count {
            var upload = try harness.request("POST", "/v1/uploads", as: client, headers: [("Content-Type", "image/png")])
            upload.headers = ["Authorization": "Bearer \(client.key)", "Kiln-Identity": "user-1", "Content-Type": "image/png"]
            upload.body = (0..<512).map { UInt8(($0 + index) % 251) }
            let (status, json, _) = try await harness.send(upload)
            try #require(status == 201, "upload answered \(status)")
            ids.append(try #require(json?["id"]?.stringValue))
        }
        return ids
    }

    static func input(_ fields: [String: JSONValue]) -> JSONValue {
        .object(fields.merging(["child": .object(["name": "Lily", "age": 5, "theme": "the sea"])]) { given, _ in given })
    }

    @Test func aStoryFromDrawingsPlacesEveryDrawingInIt() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("joanie")
            let drawings = try await Self.uploadDrawings(6, harness: harness, client: client)
            let outcome = try await StructuredTextJobTests.run(
                "story.from_drawings", Self.input(["drawings": .array(drawings.map(JSONValue.string))]), harness: harness, client: client)
            let result = try #require(outcome.result, "\(outcome.job)")
            let paragraphs = try #require(result["paragraphs"]?.arrayValue).compactMap(\.stringValue)
            #expect(paragraphs.count == drawings.count + 2)
            #expect(result["story_text"]?.stringValue == paragraphs.joined(separator: "\n\n"))
            #expect(result["title"]?.stringValue?.isEmpty == false)
            let placements = try #require(result["image_placements"]?.arrayValue)
            #expect(placements.compactMap { $0["upload_id"]?.stringValue } == drawings, "every drawing placed once, in order")
            for placement in placements {
                #expect((1...paragraphs.count).contains(placement["after_paragraph"]?.intValue ?? 0))
            }
            #expect(result["prompt_version"]?.stringValue == "story.from_drawings.v1")
        }
    }

    @Test func aContinuedStoryPlacesTheNewDrawingsAfterTheEarlierParagraphs() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("joanie")
            let drawings = try await Self.uploadDrawings(2, harness: harness, client: client)
            let story: JSONValue = .object([
                "title": "Lily and the Lighthouse Whale",
                "paragraphs": .array(["Once upon a time, Lily found a shell that hummed.", "The whale sang her to sleep."]),
            ])
            let outcome = try await StructuredTextJobTests.run(
                "story.continue", Self.input(["story": story, "drawings": .array(drawings.map(JSONValue.string))]), harness: harness,
                client: client)
            let result = try #require(outcome.result, "\(outcome.job)")
            #expect(result["title"]?.stringValue == "Lily and the Lighthouse Whale")
            let paragraphs = try #require(result["paragraphs"]?.arrayValue)
            #expect(paragraphs.count == 4, "a chapter of one paragraph per new drawing and two more")
            let placements = try #require(result["image_placements"]?.arrayValue)
            #expect(placements.compactMap { $0["upload_id"]?.stringValue } == drawings)
            for placement in placements {
                #expect((3...6).contains(placement["after_paragraph"]?.intValue ?? 0), "numbered after the story's two earlier paragraphs")
            }
        }
    }

    @Test func anotherIdentitysDrawingFailsTheJobWithoutAProviderCall() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("joanie")
            let drawings = try await Self.uploadDrawings(5, harness: harness, client: client)
            let body = JSONValue.object(["kind": "story.from_drawings", "input": Self.input(["drawings": .array(drawings.map(JSONValue.string))])])
            let id = try await harness.submit(body.canonicalJSON(), as: client, identity: "user-2")
            let job = try await harness.awaitFinished(id, as: client, identity: "user-2")
            #expect(job["error"]?["code"]?.stringValue == "upload_not_found")
        }
    }

    @Test(arguments: [
        (#"{"drawings":["9b2f5e4c-1a2b-4c3d-8e9f-000000000001"],"child":{"name":"Lily"}}"#, "input.drawings"),
        (#"{"drawings":["a","b","c","d","e"],"child":{"name":"Lily"}}"#, "input.drawings[0]"),
        (
            #"{"drawings":["9b2f5e4c-1a2b-4c3d-8e9f-000000000001","9b2f5e4c-1a2b-4c3d-8e9f-000000000001","9b2f5e4c-1a2b-4c3d-8e9f-000000000002","9b2f5e4c-1a2b-4c3d-8e9f-000000000003","9b2f5e4c-1a2b-4c3d-8e9f-000000000004"],"child":{"name":"Lily"}}"#,
            "input.drawings[1]"
        ),
        (
            #"{"drawings":["9b2f5e4c-1a2b-4c3d-8e9f-000000000001","9b2f5e4c-1a2b-4c3d-8e9f-000000000002","9b2f5e4c-1a2b-4c3d-8e9f-000000000003","9b2f5e4c-1a2b-4c3d-8e9f-000000000004","9b2f5e4c-1a2b-4c3d-8e9f-000000000005"],"child":{"name":"Lily","age":40}}"#,
            "input.child.age"
        ),
    ])
    func aBadInputIsA400NamingTheField(input: String, field: String) async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            let client = try await harness.tenant("joanie")
            let body = #"{"kind":"story.from_drawings","input":\#(input)}"#
            let (status, json, _) = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body))
            #expect(status == 400)
            #expect(json?["field"]?.stringValue == field)
        }
    }
}
