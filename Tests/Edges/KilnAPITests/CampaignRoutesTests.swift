import Foundation
import HTTPTypes
import KilnAPI
import KilnCore
import KilnJSON
import KilnStore
import Testing

/// `/v1/campaigns` over the fakes: what an app sees of its campaigns while their jobs are queued, and every refusal.
@Suite struct CampaignRoutesTests {
    static let opening = #"{"title": "The Drowned Bells", "setting": "A drowned kingdom.", "character": {"name": "Kael", "class": "rogue"}}"#

    static let state = #"""
        {"character": {"name": "Kael", "class": "rogue", "level": 3, "hp": 18, "max_hp": 24, "inventory": ["dagger"]},
         "npcs": [{"name": "Old Brannoc", "hp": 10, "max_hp": 12, "attitude": "friendly"}],
         "location": "The Drowned Chapel", "locations": ["The Drowned Chapel"], "combat": {"active": false, "combatants": []}}
        """#

    /// A campaign of `acme`'s `user-1` whose opening scene is applied: ready for a turn.
    static func readyCampaign(in campaigns: MemoryCampaigns) async throws -> CampaignID {
        let job = JobID()
        let identity = try #require(Identity(validating: "user-1"))
        let campaign = try #require(
            try await campaigns.create(job, tenant: TestAPI.tenant, identity: identity, title: "The Drowned Bells", settings: "{}"))
        let scene = NewScene(
            number: 1, title: "The Bell", narrative: "The bell rings under the water.",
            planningBlock: #"{"choices": [{"id": "choice_1", "text": "Ring the bell."}]}"#)
        #expect(try await campaigns.apply(scene, state: try #require(JSONValue.parse(state)).canonicalJSON(), to: campaign.id, job: job))
        return campaign.id
    }

    @Test func aNewCampaignIsOpeningUntilItsJobFinishes() async throws {
        let api = try TestAPI().driver()
        let created = try await api.send(.post, "/v1/campaigns", headers: TestAPI.headers(), body: Self.opening)
        #expect(created.status == .accepted)
        let answer = try #require(JSONValue.parse(created.body))
        #expect(answer["campaign"]?["status"] == "opening")
        #expect(answer["campaign"]?["job_id"] == answer["job"]?["id"])
        #expect(answer["job"]?["kind"] == "campaign.open")
        let id = try #require(answer["campaign"]?["id"]?.stringValue)
        let shown = try await api.send(.get, "/v1/campaigns/\(id)", headers: TestAPI.headers())
        #expect(JSONValue.parse(shown.body)?["scenes"]?.arrayValue?.isEmpty == true)
        // Its first scene is not written yet: nothing to play, nothing to export.
        let turn = try await api.send(.post, "/v1/campaigns/\(id)/turns", headers: TestAPI.headers(), body: #"{"action": "Wait."}"#)
        #expect(turn.status == .conflict && JSONValue.parse(turn.body)?["code"] == "campaign_busy")
        let export = try await api.send(.post, "/v1/campaigns/\(id)/exports", headers: TestAPI.headers(), body: #"{"format": "pdf"}"#)
        #expect(export.status == .conflict && JSONValue.parse(export.body)?["code"] == "campaign_not_ready")
    }

    @Test func aTurnIsWrittenFromTheStoredStateAndOneRunsAtATime() async throws {
        let test = TestAPI()
        let id = try await Self.readyCampaign(in: test.campaigns)
        let api = try test.driver()
        let played = try await api.send(.post, "/v1/campaigns/\(id)/turns", headers: TestAPI.headers(), body: #"{"action": "Ring the bell."}"#)
        #expect(played.status == .accepted)
        let answer = try #require(JSONValue.parse(played.body))
        #expect(answer["campaign"]?["status"] == "playing")
        #expect(answer["job"]?["kind"] == "campaign.turn")
        let again = try await api.send(.post, "/v1/campaigns/\(id)/turns", headers: TestAPI.headers(), body: #"{"action": "Run."}"#)
        #expect(again.status == .conflict && JSONValue.parse(again.body)?["code"] == "campaign_busy")
        // Another identity of the tenant does not see it.
        let hidden = try await api.send(.get, "/v1/campaigns/\(id)", headers: TestAPI.headers("user-2"))
        #expect(hidden.status == .notFound && JSONValue.parse(hidden.body)?["code"] == "campaign_not_found")
    }

    @Test func listsArePagedByTheirCursor() async throws {
        let api = try TestAPI().driver()
        for _ in 0..<3 { _ = try await api.send(.post, "/v1/campaigns", headers: TestAPI.headers(), body: Self.opening) }
        let first = try #require(JSONValue.parse(try await api.send(.get, "/v1/campaigns?limit=2", headers: TestAPI.headers()).body))
        #expect(first["campaigns"]?.arrayValue?.count == 2)
        let cursor = try #require(first["next_cursor"]?.stringValue)
        let second = try #require(
            JSONValue.parse(try await api.send(.get, "/v1/campaigns?limit=2&cursor=\(cursor)", headers: TestAPI.headers()).body))
        #expect(second["campaigns"]?.arrayValue?.count == 1)
        #expect(second["next_cursor"] == .null)
        let ids = (first["campaigns"]?.arrayValue ?? []) + (second["campaigns"]?.arrayValue ?? [])
        #expect(Set(ids.compactMap { $0["id"]?.stringValue }).count == 3)
    }
}
