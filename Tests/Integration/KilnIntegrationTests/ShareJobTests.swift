import CurlClient
import Foundation
import KilnCore
import KilnJSON
import KilnPrivacy
import KilnQueue
import KilnStore
import PostgresClient
import RenderingFixtures
import Locking
import Testing

/// `share.card` and `share.publish` through the API and a worker, and the web reader serving what was published: to
/// anyone with the address, until it expires or its owner revokes it, and nothing else of the owner's.
@Suite struct ShareJobTests {
    /// What the cover's camera wrote into it: never served.
    static let cameraNotes = "GPS 48.8584 N 2.2945 E, iPhone of user-1"

    /// Publishes the three-node story with a JPEG cover and a PNG illustration; returns the result and the two uploads' ids.
    static func publishWithUploads(
        _ harness: Harness, _ client: Harness.Client, identity: String = "user-1", extra: String = ""
    )
        async throws -> (result: JSONValue, uploads: [String])
    {
        let taken = try await DocumentFixtures.picture(color: "purple", width: 400, height: 600, codec: "mjpeg")
        let photo = CameraMetadata.appendingPicture(Self.cameraNotes, to: CameraMetadata.insertingEXIF(Self.cameraNotes, into: taken))
        let cover = try await DocumentFixtures.upload(harness, client, photo, contentType: "image/jpeg", identity: identity)
        let picture = try await DocumentFixtures.upload(harness, client, try await DocumentFixtures.picture(color: "orange"), identity: identity)
        let input = #"{"story":\#(DocumentFixtures.story(cover: cover, illustration: picture))\#(extra)}"#
        let (_, job) = try await DocumentFixtures.run(harness, client, kind: "share.publish", input: input, identity: identity)
        try #require(job["status"]?.stringValue == "succeeded", "\(job)")
        return (try #require(job["result"]), [cover, picture])
    }

    static func publish(_ harness: Harness, _ client: Harness.Client, identity: String = "user-1", extra: String = "") async throws -> JSONValue {
        try await publishWithUploads(harness, client, identity: identity, extra: extra).result
    }

    static func get(_ harness: Harness, _ url: String) async throws -> HTTPResponse {
        try await harness.http.execute(HTTPRequest(method: "GET", url: url), timeout: .seconds(30))
    }

    @Test func aShareCardComesInBothSizesAndTheFreeTiersCarriesTheWatermark() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let cover = try await DocumentFixtures.upload(
                harness, client, try await DocumentFixtures.picture(color: "purple", width: 400, height: 600, codec: "mjpeg"),
                contentType: "image/jpeg")
            let input = #"{"story":\#(DocumentFixtures.story(cover: cover, illustration: nil))}"#
            let directory = try TemporaryDirectory()
            var landscapes: [String: Picture] = [:]
            for tier in ["free", "pro"] {
                let (id, job) = try await DocumentFixtures.run(harness, client, kind: "share.card", input: input, tier: tier)
                try #require(job["status"]?.stringValue == "succeeded", "\(job)")
                #expect(job["result"]?["watermark"] == .bool(tier == "free"))
                for (name, size) in [("card-landscape.png", (1200, 630)), ("card-story.png", (1080, 1920))] {
                    let card = try await DocumentFixtures.artifact(harness, client, id, name, into: directory.path)
                    #expect(card.contentType == "image/png")
                    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: card.path)))
                    #expect(ParsedPNG(bytes).map { ($0.width, $0.height) == size } == true, "\(name) is not \(size)")
                }
                let landscape = (directory.path as NSString).appendingPathComponent("card-landscape.png")
                landscapes[tier] = Picture(png: landscape)
            }
            // Same story, same card, but for the watermark.
            let free = try #require(landscapes["free"])
            let pro = try #require(landscapes["pro"])
            #expect(free.meanDifference(from: pro) > 0.05)
        }
    }

    @Test func aPublishedPathIsAPublicPageWithItsPicturesAndLinkPreview() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let (result, uploads) = try await Self.publishWithUploads(harness, client)
            let address = try #require(result["share_url"]?.stringValue)
            let slug = try #require(result["slug"]?.stringValue)
            #expect(address == (try harness.apiURL) + "/s/" + slug)
            #expect(slug.count == 22)

            // No credentials at all.
            let page = try await Self.get(harness, address)
            #expect(page.status == 200)
            #expect(page.header("Content-Type") == "text/html; charset=utf-8")
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            // Asked for again each time, so a revocation shows at once; no shared cache keeps a picture.
            #expect(page.header("Cache-Control") == "no-cache")
            let html = String(decoding: page.body, as: UTF8.self)
            for expected in ["The Lantern Keeper", "Élodie climbed the stairs.", #"property="og:image" content="\#(address)/card.png""#] {
                #expect(html.contains(expected), "the page has no \(expected)")
            }
            #expect(html.contains(DocumentFixtures.tricky))
            // Pictures by path, so a page published before a change of domain still shows them.
            #expect(html.contains(#"src="/s/\#(slug)/cover.jpg""#))
            #expect(!html.lowercased().contains("<script"))
            for secret in ["user-1", client.tenant.id.rawValue, "tenants/"] + uploads {
                #expect(!html.contains(secret), "the page shows its owner's \(secret)")
            }
            // Link unfurlers may ask with HEAD first.
            let head = try await harness.http.execute(HTTPRequest(method: "HEAD", url: address), timeout: .seconds(30))
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/html; charset=utf-8")

            let card = try await Self.get(harness, address + "/card.png")
            #expect(card.status == 200)
            #expect(card.header("Content-Type") == "image/png")
            #expect(card.header("Cache-Control")?.hasPrefix("private") == true)
            #expect(ParsedPNG(card.body).map { ($0.width, $0.height) == (1200, 630) } == true)
            let cover = try await Self.get(harness, address + "/cover.jpg")
            #expect(cover.status == 200)
            #expect(cover.header("Content-Type") == "image/jpeg")
            #expect(!String(decoding: cover.body, as: UTF8.self).contains(Self.cameraNotes), "the cover still carries what the camera wrote")
            #expect(try await Self.get(harness, address + "/image-1.png").status == 200)
            #expect(try await Self.get(harness, address + "/secrets.txt").status == 404)

            // What a browser shows: the page laid out at a phone's width, the cover's purple at its top.
            let directory = try TemporaryDirectory()
            let screenshot = (directory.path as NSString).appendingPathComponent("page.png")
            _ = try await Command.run([
                "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                "--no-first-run", "--user-data-dir=\(directory.path)/profile", "--window-size=390,1200", "--screenshot=\(screenshot)", address,
            ])
            let picture = try #require(Picture(png: screenshot))
            #expect(picture.width == 390)
            let top = picture.meanColor(x: 0, y: 0, width: 390, height: 600)
            #expect(top.red > top.green + 10 && top.blue > top.green + 10, "no purple cover near the top of the page: \(top)")
        }
    }

    @Test func aRevokedOrExpiredPageIsGoneAndAGuessedOneWasNeverThere() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let revoked = try #require(try await Self.publish(harness, client)["slug"]?.stringValue)
            let expired = try #require(try await Self.publish(harness, client, extra: #","expires_in_days":1"#)["slug"]?.stringValue)
            let base = try harness.apiURL + "/s/"

            // Only the owner may revoke.
            #expect(
                try await harness.send(try harness.request("DELETE", "/v1/shares/\(revoked)", as: client, identity: "someone-else")).status == 404)
            #expect(try await Self.get(harness, base + revoked).status == 200)
            #expect(try await harness.send(try harness.request("DELETE", "/v1/shares/\(revoked)", as: client)).status == 204)
            #expect(try await Self.get(harness, base + revoked).status == 410)
            #expect(try await Self.get(harness, base + revoked + "/card.png").status == 410)
            #expect(try await harness.objects.list(under: "tenants/\(client.tenant.id)/shares/\(revoked)").isEmpty)

            _ = try await harness.database.execute("UPDATE shares SET expires_at = now() - interval '1 second' WHERE slug = $1", [expired])
            #expect(try await Self.get(harness, base + expired).status == 410)
            #expect(try await Self.get(harness, base + expired + "/cover.jpg").status == 410)

            #expect(try await Self.get(harness, base + ShareStore.newSlug()).status == 404)
            #expect(try await Self.get(harness, base + "short").status == 404)

            // The purge takes the expired page's files down; the address still answers 410 for 30 days, then 404.
            let purger = RetentionPurger(
                admin: harness.redisNamespace.admin, records: RecordPurge(pool: harness.database, objects: harness.objects),
                policies: harness.policies.withLock { $0 })
            _ = try await purger.purge(tenants: [client.tenant.id], now: Date())
            #expect(try await harness.objects.list(under: "tenants/\(client.tenant.id)/shares/\(expired)").isEmpty)
            #expect(try await Self.get(harness, base + expired).status == 410)
            _ = try await purger.purge(tenants: [client.tenant.id], now: Date().addingTimeInterval(31 * 86_400))
            #expect(try await Self.get(harness, base + expired).status == 404)
        }
    }

    @Test func erasingTheOwnerTakesItsPagesDown() async throws {
        try await Harness.with { harness in
            let client = try await DocumentFixtures.start(harness)
            let slug = try #require(try await Self.publish(harness, client, identity: "leaving")["slug"]?.stringValue)
            let kept = try #require(try await Self.publish(harness, client, identity: "staying")["slug"]?.stringValue)
            let erased = try await harness.send(try harness.request("DELETE", "/v1/identity", as: client, identity: "leaving"))
            #expect(erased.status == 200)
            #expect(erased.json?["shares"] == .number(1))
            #expect(try await Self.get(harness, try harness.apiURL + "/s/" + slug).status == 404)
            #expect(try await harness.objects.list(under: "tenants/\(client.tenant.id)/shares/\(slug)").isEmpty)
            #expect(try await Self.get(harness, try harness.apiURL + "/s/" + kept).status == 200)
        }
    }
}
