import Foundation
import HTTPTypes
import KilnCore
import KilnJSON
import Testing

/// The web reader (`/s/{slug}`, no credentials) and its owners' revocation over the in-memory published pages.
@Suite struct ShareRoutesTests {
    static func shares() throws -> MemoryShares {
        MemoryShares([
            "s3cret": MemoryShares.Page(
                owner: try #require(Identity(validating: "user-1")), html: "<h1>The Tale</h1>",
                files: ["card.png": ("image/png", [0x89, 0x50, 0x4E, 0x47])], expiresAt: TestAPI.now.addingTimeInterval(86_400))
        ])
    }

    @Test func aLivePageAndItsFilesAreServedToAnyoneWithTheAddress() async throws {
        var test = TestAPI()
        test.shares = try Self.shares()
        let api = try test.driver()
        let page = try await api.send(.get, "/s/s3cret")
        #expect(page.status == .ok)
        #expect(page.body == "<h1>The Tale</h1>")
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
        #expect(page.headers[.init("X-Robots-Tag")!] == "noindex")
        let card = try await api.send(.get, "/s/s3cret/card.png")
        #expect(card.status == .ok)
        #expect(card.headers[.contentType] == "image/png")
        #expect(card.bytes == [0x89, 0x50, 0x4E, 0x47])
        #expect(try await api.send(.get, "/s/s3cret/other.png").status == .notFound)
        #expect(try await api.send(.get, "/s/unknown").status == .notFound)
    }

    @Test func onlyItsOwnerRevokesAPageAndThenItIsGone() async throws {
        var test = TestAPI()
        test.shares = try Self.shares()
        let api = try test.driver()
        let stranger = try await api.send(.delete, "/v1/shares/s3cret", headers: TestAPI.headers("user-2"))
        #expect(stranger.status == .notFound)
        #expect(JSONValue.parse(stranger.body)?["code"]?.stringValue == "share_not_found")
        #expect(try await api.send(.get, "/s/s3cret").status == .ok)
        let revoked = try await api.send(.delete, "/v1/shares/s3cret", headers: TestAPI.headers())
        #expect(revoked.status == .noContent)
        // Served from this node's memory a moment ago, and gone at once all the same.
        let gone = try await api.send(.get, "/s/s3cret")
        #expect(gone.status == .gone)
        #expect(gone.headers[.cacheControl] == "no-store")
        #expect(try await api.send(.get, "/s/s3cret/card.png").status == .gone)
    }

    @Test func revokingNeedsTheTenantsKey() async throws {
        let answer = try await TestAPI().driver().send(.delete, "/v1/shares/s3cret")
        #expect(answer.status == .unauthorized)
        #expect(JSONValue.parse(answer.body)?["code"]?.stringValue == "missing_api_key")
    }
}
