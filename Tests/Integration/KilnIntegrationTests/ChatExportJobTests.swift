import CurlClient
import Foundation
import KilnCore
import KilnHandlers
import KilnJSON
import KilnPolicy
import KilnWorker
import RenderingFixtures
import Locking
import Testing

/// `video.chat_export` through the API and a worker: ChatTale's tier rules, the video as an artifact, progress.
@Suite struct ChatExportJobTests {
    /// ChatTale's tiers, trimmed: free identities get three videos a day, premium ones unlimited.
    static let policy = """
        {"chattale": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "America/Los_Angeles", "safety": "standard",
          "tiers": {
            "free": {"lowest": true, "daily": {"video": 3}, "running_jobs": 2, "refund_cap": 3, "max_devices_per_day": 4},
            "premium": {"daily": {"video": "unlimited"}, "running_jobs": 3, "refund_cap": 20, "max_devices_per_day": 8}
          },
          "kinds": {"video.chat_export": {"class": "video", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 100, "period_seconds": 60, "burst": 50},
                    "ip_velocity": {"count": 600, "period_seconds": 60, "burst": 300},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    /// A short square video, quick to make.
    static func body(theme: String = "imessage", characters: Int = 2) -> String {
        let cast = [
            ##"{"id":"me","name":"Me","color":"#0A84FF","avatar":"😎"}"##, ##"{"id":"sam","name":"Sam","color":"#34C759"}"##,
            ##"{"id":"kim","name":"Kim","color":"#FF9500"}"##,
        ].prefix(characters).joined(separator: ",")
        return """
            {"kind":"video.chat_export","input":{
              "conversation":{"characters":[\(cast)],
                "messages":[{"character":"sam","text":"Movie tonight? 🍿"},{"character":"me","text":"Only if you pick a comedy"}]},
              "settings":{"format":"1:1","fps":30,"typing_speed":"fast","sounds":false,"theme":"\(theme)"}}}
            """
    }

    static func start(_ harness: Harness) async throws -> Harness.Client {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("chattale")
        try await harness.startAPI()
        harness.startWorker(handlers: .available(dependencies: HandlerDependencies(policies: harness.policies.withLock { $0 })))
        return client
    }

    static func submit(
        _ harness: Harness, _ client: Harness.Client, tier: String, body: String = body(), identity: String = "user-1"
    )
        async throws -> (status: Int, json: JSONValue?)
    {
        let reply = try await harness.send(
            try harness.request("POST", "/v1/jobs", as: client, identity: identity, body: body, headers: [("Kiln-Tier", tier)]))
        return (reply.status, reply.json)
    }

    @Test func theFreeTiersVideoCarriesTheWatermarkAndThePremiumOneDoesNot() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            var lastFrames: [String: [UInt8]] = [:]
            for (tier, identity) in [("free", "free-user"), ("premium", "premium-user")] {
                let submitted = try await Self.submit(harness, client, tier: tier, identity: identity)
                try #require(submitted.status == 202, "\(String(describing: submitted.json))")
                let id = try #require(submitted.json?["id"]?.stringValue.flatMap(JobID.init(validating:)))
                let job = try await harness.awaitFinished(id, as: client, identity: identity, within: .seconds(120))
                #expect(job["status"]?.stringValue == "succeeded", "\(job)")
                #expect(job["result"]?["watermark"] == .bool(tier == "free"))
                #expect(job["result"]?["width"] == .number(1080))
                let events = try await APITests.events(harness, id, client, after: nil, identity: identity)
                #expect(events.contains { $0.type == "progress" })

                let video = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/artifacts/chat.mp4", as: client, identity: identity))
                #expect(video.status == 200)
                #expect(video.response.header("Content-Type") == "video/mp4")
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-\(id).mp4").path
                defer { try? FileManager.default.removeItem(atPath: path) }
                _ = FileManager.default.createFile(atPath: path, contents: Data(video.response.body))
                lastFrames[tier] = try await Self.lastFrame(of: path)
            }
            // The mark sits on a dark pill in the middle of the status bar (its top 68 rows at 1:1), over the header's
            // light grey: darker there on the free video.
            let free = try #require(lastFrames["free"])
            let premium = try #require(lastFrames["premium"])
            #expect(Self.meanRed(free, x: 460, y: 24, width: 160, height: 20) < Self.meanRed(premium, x: 460, y: 24, width: 160, height: 20) - 10)
        }
    }

    @Test func aPremiumThemeOrAThirdCharacterFromAFreeIdentityIsRefusedBeforeAnythingIsCharged() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let theme = try await Self.submit(harness, client, tier: "free", body: Self.body(theme: "discord"))
            #expect(theme.status == 403)
            #expect(theme.json?["code"]?.stringValue == "upgrade_required")
            #expect(theme.json?["field"]?.stringValue == "input.settings.theme")
            let third = try await Self.submit(harness, client, tier: "free", body: Self.body(characters: 3))
            #expect(third.status == 403)
            #expect(third.json?["field"]?.stringValue == "input.conversation.characters")
            let quota = try #require(
                try await harness.send(try harness.request("GET", "/v1/quota", as: client, headers: [("Kiln-Tier", "free")])).json)
            #expect(quota["classes"]?["video"]?["remaining"] == .number(3))
            // Premium identities may.
            #expect(try await Self.submit(harness, client, tier: "premium", body: Self.body(theme: "discord", characters: 3)).status == 202)
        }
    }

    @Test func aBadConversationIsA400NamingTheField() async throws {
        try await Harness.with { harness in
            let client = try await Self.start(harness)
            let unknown = Self.body().replacingOccurrences(of: #""character":"sam""#, with: #""character":"bob""#)
            let reply = try await Self.submit(harness, client, tier: "premium", body: unknown)
            #expect(reply.status == 400)
            #expect(reply.json?["field"]?.stringValue == "input.conversation.messages[0].character")
        }
    }

    /// The last frame of the video at `path`, 1080×1080 RGB.
    static func lastFrame(of path: String) async throws -> [UInt8] {
        let bytes = try await Command.run([
            "ffmpeg", "-v", "error", "-sseof", "-0.1", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-",
        ])
        try #require(bytes.count == 1080 * 1080 * 3, "ffmpeg gave \(bytes.count) bytes")
        return Array(bytes)
    }

    static func meanRed(_ rgb: [UInt8], x: Int, y: Int, width: Int, height: Int) -> Double {
        var total = 0
        for row in y..<(y + height) {
            for column in x..<(x + width) { total += Int(rgb[(row * 1080 + column) * 3]) }
        }
        return Double(total) / Double(width * height)
    }
}
