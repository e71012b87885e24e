import HTTPTypes
import KilnCore
import KilnJSON
import Testing

/// `/v1/partners` over the in-memory links: invite, redeem, accept, show, unlink, and each refusal with its reason.
@Suite struct PartnerRoutesTests {
    @Test func twoIdentitiesLinkAndUnlinkAndTheirStandingsAreForgotten() async throws {
        let test = try TestAPI.metered()
        let api = try test.driver()
        let alice = TestAPI.headers("alice")
        let bob = TestAPI.headers("bob")
        let invited = try await api.send(.post, "/v1/partners/invitations", headers: alice)
        #expect(invited.status == .created)
        let invitation = try #require(JSONValue.parse(invited.body))
        let code = try #require(invitation["code"]?.stringValue)
        #expect(invitation["expires_at"]?.stringValue == "2026-09-21T14:28:20Z")

        let own = try await api.send(.post, "/v1/partners/invitations/\(code)/redeem", headers: alice)
        #expect(own.status == .notFound, "not one's own code")
        #expect(JSONValue.parse(own.body)?["code"]?.stringValue == "invitation_not_found")
        let early = try await api.send(.post, "/v1/partners/invitations/\(code)/accept", headers: alice)
        #expect(early.status == .notFound, "nobody redeemed it yet")
        let redeemed = try await api.send(.post, "/v1/partners/invitations/\(code)/redeem", headers: bob)
        #expect(redeemed.status == .accepted)
        #expect(JSONValue.parse(redeemed.body)?["status"]?.stringValue == "redeemed")
        #expect(try await api.send(.post, "/v1/partners/invitations/\(code)/accept", headers: bob).status == .notFound, "only the inviter")
        let accepted = try await api.send(.post, "/v1/partners/invitations/\(code)/accept", headers: alice)
        #expect(accepted.status == .created)
        #expect(JSONValue.parse(accepted.body)?["partner"]?.stringValue == "bob")
        #expect(test.standings.forgotten.map(\.rawValue) == ["alice", "bob"])

        let shown = try await api.send(.get, "/v1/partners", headers: bob)
        #expect(JSONValue.parse(shown.body)?["partner"]?.stringValue == "alice")
        #expect(JSONValue.parse(shown.body)?["linked_at"]?.stringValue == "2026-09-21T14:13:20Z")
        let unlinked = try await api.send(.delete, "/v1/partners", headers: bob)
        #expect(unlinked.status == .ok)
        #expect(JSONValue.parse(unlinked.body)?["unlinked"]?.stringValue == "alice")
        #expect(test.standings.forgotten.map(\.rawValue) == ["alice", "bob", "bob", "alice"])
        #expect(try await api.send(.get, "/v1/partners", headers: bob).status == .notFound)
        #expect(try await api.send(.delete, "/v1/partners", headers: alice).status == .notFound)

        // Within the cooldown neither may link again.
        let again = try #require(JSONValue.parse(try await api.send(.post, "/v1/partners/invitations", headers: alice).body)?["code"]?.stringValue)
        #expect(try await api.send(.post, "/v1/partners/invitations/\(again)/redeem", headers: bob).status == .accepted)
        let refused = try await api.send(.post, "/v1/partners/invitations/\(again)/accept", headers: alice)
        #expect(refused.status == .conflict)
        #expect(JSONValue.parse(refused.body)?["code"]?.stringValue == "partner_link_refused")
    }

    @Test func aTenantWithoutPartnerLinksOffersNone() async throws {
        let answer = try await TestAPI().driver().send(.post, "/v1/partners/invitations", headers: TestAPI.headers())
        #expect(answer.status == .notFound)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "partners_not_offered")
    }
}
