import Foundation
import KilnCore
import KilnJSON
import Testing
import WorldArchitectInputs

/// WorldArchitect's campaigns over `/v1/campaigns`, end to end on the provider simulator: opened, played turn by turn
/// with each scene applied once, the state following the turns, listed, renamed, exported, and nobody else's to see.
@Suite struct CampaignTests {
    /// Polls the campaign until no job of it is in flight.
    static func awaitSettled(_ id: String, harness: Harness, client: Harness.Client, identity: String = "user-1") async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let (status, json, _) = try await harness.send(try harness.request("GET", "/v1/campaigns/\(id)", as: client, identity: identity))
            try #require(status == 200, "GET campaign answered \(status): \(String(describing: json))")
            if let json, json["job_id"] == .null { return json }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("campaign \(id) did not settle within two minutes")
    }

    static let opening = #"""
        {"title": "The Drowned Bells", "setting": "A drowned kingdom where bells ring under the sea.",
         "character": {"name": "Kael", "class": "rogue"}, "style": "grim and terse"}
        """#

    @Test func aCampaignOpensPlaysTurnsAndKeepsItsHistory() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("worldarchitect")
            let (status, created, _) = try await harness.send(try harness.request("POST", "/v1/campaigns", as: client, body: Self.opening))
            try #require(status == 202, "\(String(describing: created))")
            let id = try #require(created?["campaign"]?["id"]?.stringValue)
            #expect(created?["campaign"]?["status"] == "opening")
            #expect(created?["job"]?["kind"] == "campaign.open")

            var campaign = try await Self.awaitSettled(id, harness: harness, client: client)
            #expect(campaign["status"] == "ready", "\(campaign)")
            #expect(campaign["scene_count"] == 1)
            #expect(campaign["title"] == "The Drowned Bells")
            let opened = try #require(campaign["state"]).decode(as: CampaignState.self)
            #expect(opened.character.name == "Kael")

            for turn in 1...2 {
                let action = try #require(
                    campaign["scenes"]?.arrayValue?.last?["planning_block"]?["choices"]?.arrayValue?.first?["text"]?.stringValue)
                let body = JSONValue.object(["action": .string(action)]).canonicalJSON()
                let (played, answer, _) = try await harness.send(
                    try harness.request("POST", "/v1/campaigns/\(id)/turns", as: client, body: body))
                try #require(played == 202, "\(String(describing: answer))")
                #expect(answer?["job"]?["kind"] == "campaign.turn")
                // One turn at a time: a second action while the first is played waits.
                let (busy, refusal, _) = try await harness.send(try harness.request("POST", "/v1/campaigns/\(id)/turns", as: client, body: body))
                if busy != 202 { #expect(busy == 409 && refusal?["code"] == "campaign_busy", "\(String(describing: refusal))") }
                campaign = try await Self.awaitSettled(id, harness: harness, client: client)
                #expect(campaign["scene_count"]?.intValue == turn + 1, "\(campaign)")
                let scenes = try #require(campaign["scenes"]?.arrayValue)
                #expect(scenes.map { $0["number"]?.intValue } == Array(1...(turn + 1)).map { $0 }, "each scene applied once, in order")
                #expect(scenes.last?["action"]?.stringValue == action)
            }
            let final = try #require(campaign["state"]).decode(as: CampaignState.self)
            #expect(final.inconsistency(field: "state") == nil)

            let rename = #"{"title": "Bells Beneath", "settings": {"tone": "dark"}}"#
            let (renamed, view, _) = try await harness.send(try harness.request("PATCH", "/v1/campaigns/\(id)", as: client, body: rename))
            #expect(renamed == 200 && view?["title"] == "Bells Beneath" && view?["scene_count"] == 3)

            let (listed, list, _) = try await harness.send(try harness.request("GET", "/v1/campaigns", as: client))
            #expect(listed == 200 && list?["campaigns"]?.arrayValue?.map { $0["id"]?.stringValue } == [id])

            let (exported, export, _) = try await harness.send(
                try harness.request("POST", "/v1/campaigns/\(id)/exports", as: client, body: #"{"format": "txt"}"#))
            try #require(exported == 202, "\(String(describing: export))")
            let exportID = try #require(export?["id"]?.stringValue.flatMap(JobID.init(validating:)))
            let document = try await harness.awaitFinished(exportID, as: client)
            #expect(document["status"] == "succeeded", "\(document)")

            // Another identity of the same tenant sees nothing of it.
            let (hidden, notFound, _) = try await harness.send(try harness.request("GET", "/v1/campaigns/\(id)", as: client, identity: "user-2"))
            #expect(hidden == 404 && notFound?["code"] == "campaign_not_found")
            let (others, otherList, _) = try await harness.send(try harness.request("GET", "/v1/campaigns", as: client, identity: "user-2"))
            #expect(others == 200 && otherList?["campaigns"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test func badCampaignBodiesAreRefusedWithTheFieldAtFault() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            let client = try await harness.tenant("worldarchitect")
            let cases: [(String, String, String)] = [
                ("POST", #"{"setting": "s"}"#, "character"),
                ("POST", #"{"setting": 3, "character": {"name": "K"}}"#, "setting"),
                ("POST", #"{"setting": "s", "character": {"name": ""}}"#, "input.character.name"),
            ]
            for (method, body, field) in cases {
                let (status, problem, _) = try await harness.send(try harness.request(method, "/v1/campaigns", as: client, body: body))
                #expect(status == 400 && problem?["field"]?.stringValue == field, "\(body): \(String(describing: problem))")
            }
            let (unknown, missing, _) = try await harness.send(
                try harness.request("POST", "/v1/campaigns/\(UUID().uuidString)/turns", as: client, body: #"{"action": "wait"}"#))
            #expect(unknown == 404 && missing?["code"] == "campaign_not_found")
            let (badCursor, cursorProblem, _) = try await harness.send(try harness.request("GET", "/v1/campaigns?cursor=x", as: client))
            #expect(badCursor == 400 && cursorProblem?["field"] == "cursor")
        }
    }
}
