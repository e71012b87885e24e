import CurlClient
import Foundation
import KilnCore
import KilnHandlers
import KilnJSON
import KilnPolicy
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker
import PostgresClient
import Locking
import Testing

/// The image kinds through the API, a worker and the provider simulator: Veramo's three modes, Talevonia's
/// illustrations with its Pro tier's styles and resolution, usage recorded, uploads private to their owner.
@Suite struct ImageJobTests {
    /// Talevonia's tiers, trimmed: free identities get the basic styles and standard resolution. Veramo's free tier
    /// makes images here (in production it makes none), so the mode tests run at the lowest tier's smaller size.
    static let policy: String = {
        let abuse = """
            {"shadow_mode": true, "max_identities_per_device_per_day": 3,
             "identity_velocity": {"count": 100, "period_seconds": 60, "burst": 50},
             "ip_velocity": {"count": 600, "period_seconds": 60, "burst": 300},
             "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
             "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
            """
        func tenant(_ kinds: [String]) -> String {
            """
            {"identity_modes": ["trusted_server"], "reset_time_zone": "America/Los_Angeles", "safety": "standard",
             "tiers": {
               "free": {"lowest": true, "daily": {"image": 10}, "running_jobs": 5, "refund_cap": 3, "max_devices_per_day": 4},
               "pro": {"daily": {"image": 50}, "running_jobs": 5, "refund_cap": 20, "max_devices_per_day": 8}},
             "kinds": {\(kinds.map { #""\#($0)": {"class": "image", "cost": 1}"# }.joined(separator: ", "))},
             "abuse": \(abuse)}
            """
        }
        return #"{"talevonia": \#(tenant(["image.illustrate", "image.cover"])), "veramo": \#(tenant(["image.generate"]))}"#
    }()

    /// The simulator as fal.ai and OpenAI, the routes of `deploy/providers.json` for the image kinds, and a worker,
    /// with OpenAI's moderation judging when `judged`.
    static func start(_ harness: Harness, judged: Bool = false) async throws {
        let base = try await harness.startSimulator()
        let configuration = try harness.providerConfiguration(
            """
            {"providers": {"fal": {"api": "fal", "base_url": "\(base)", "api_key": "k"},
                           "openai": {"api": "openai_chat", "base_url": "\(base)", "api_key": "k"}},
             "routes": [
               {"tenant": "*", "kind": "image.generate:text_to_image", "models": [{"provider": "fal", "model": "fal-ai/flux/dev"}]},
               {"tenant": "*", "kind": "image.generate:edit", "models": [{"provider": "fal", "model": "fal-ai/flux-pro/kontext"}]},
               {"tenant": "*", "kind": "image.generate:multi_edit", "models": [{"provider": "fal", "model": "fal-ai/flux-pro/kontext/multi"}]},
               {"tenant": "*", "kind": "image.illustrate", "models": [{"provider": "openai", "model": "gpt-image-1"}]},
               {"tenant": "*", "kind": "image.cover", "models": [{"provider": "fal", "model": "fal-ai/flux/dev"}]}]}
            """)
        let parking = ProviderParking(redis: harness.redis, keys: harness.redisNamespace.shards.control)
        let concurrency = ProviderConcurrency(redis: harness.redis, keys: harness.redisNamespace.shards.control)
        let moderation = ModerationClient(http: harness.http, endpoint: try #require(configuration.providers["openai"]).endpoint)
        let dependencies = HandlerDependencies(
            policies: harness.policies.withLock { $0 },
            routing: TextRouting(configuration: configuration, http: harness.http, parking: parking, concurrency: concurrency),
            usage: ProviderUsageStore(pool: harness.database),
            safety: judged ? ContentSafety(moderation: moderation, strictness: { _ in .strict }) : nil,
            images: ImageRouting(configuration: configuration, http: harness.http, parking: parking, concurrency: concurrency),
            uploads: UploadStore(pool: harness.database, objects: harness.objects))
        harness.startWorker(handlers: .available(dependencies: dependencies))
    }

    static func upload(_ harness: Harness, _ client: Harness.Client, identity: String = "user-1") async throws -> String {
        // Any bytes will do for the simulator, which does not look inside the images it edits.
        let request = HTTPRequest(
            method: "POST", url: try harness.apiURL + "/v1/uploads",
            headers: ["Authorization": "Bearer \(client.key)", "Kiln-Identity": identity, "Content-Type": "image/png"],
            body: Array("not really a png".utf8))
        let reply = try await harness.send(request)
        try #require(reply.status == 201)
        return try #require(reply.json?["id"]?.stringValue)
    }

    /// The PNG a job stored as `image.png`, and the job.
    static func image(
        _ harness: Harness, _ client: Harness.Client, _ id: JobID, identity: String = "user-1"
    ) async throws -> (job: JSONValue, png: [UInt8]) {
        let job = try await harness.awaitFinished(id, as: client, identity: identity, within: .seconds(60))
        try #require(job["status"]?.stringValue == "succeeded", "\(job)")
        let served = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/artifacts/image.png", as: client, identity: identity))
        #expect(served.status == 200)
        #expect(served.response.header("Content-Type") == "image/png")
        return (job, served.response.body)
    }

    @Test func veramosThreeModesEachGoToTheirModelAndStoreTheImage() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy)
            try await Self.start(harness)
            try await harness.startAPI()
            let client = try await harness.tenant("veramo")
            let first = try await Self.upload(harness, client)
            let second = try await Self.upload(harness, client)
            let cases: [(images: [String], model: String)] = [
                ([], "fal-ai/flux/dev"), ([first], "fal-ai/flux-pro/kontext"), ([first, second], "fal-ai/flux-pro/kontext/multi"),
            ]
            for (images, model) in cases {
                let input: JSONValue = .object([
                    "prompt": "Us two at the beach at sunset", "style": "dreamy", "aspect_ratio": "16:9",
                    "images": images.isEmpty ? .null : .array(images.map(JSONValue.string)),
                ])
                let id = try await harness.submit(JSONValue.object(["kind": "image.generate", "input": input]).canonicalJSON(), as: client)
                let (job, png) = try await Self.image(harness, client, id)
                #expect(job["result"]?["model"]?.stringValue == model)
                #expect(job["result"]?["style"]?.stringValue == "dreamy")
                #expect(job["result"]?["prompt_version"]?.stringValue == "image.generate.v1")
                // 16:9 at the lowest tier's 1024 on the long side, in multiples of 16, as the PNG's own header says.
                #expect(job["result"]?["width"] == .number(1024))
                #expect(job["result"]?["height"] == .number(576))
                #expect(Array(png.prefix(4)) == [0x89, 0x50, 0x4E, 0x47])
                let rows = try await harness.database.query("SELECT images FROM provider_usage WHERE job_id = $1::uuid", [id.rawValue])
                #expect(rows.count == 1)
                #expect(try rows.first?.decode("images", as: Int.self) == 1)
            }
        }
    }

    @Test func anotherIdentitysUploadIsAsGoodAsUnknown() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy)
            try await Self.start(harness)
            try await harness.startAPI()
            let client = try await harness.tenant("veramo")
            let theirs = try await Self.upload(harness, client, identity: "someone-else")
            let body = JSONValue.object([
                "kind": "image.generate", "input": .object(["prompt": "Make it snow", "images": .array([.string(theirs)])]),
            ])
            let id = try await harness.submit(body.canonicalJSON(), as: client)
            let job = try await harness.awaitFinished(id, as: client, within: .seconds(60))
            #expect(["failed", "dead"].contains(job["status"]?.stringValue))
            #expect(job["error"]?["code"]?.stringValue == "upload_not_found")
        }
    }

    /// The simulator's moderation flags the images of a request whose text carries the `flagged` fault.
    @Test func anInputImageTheSafetyProfileRefusesEndsTheJobContentFiltered() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy)
            try await Self.start(harness, judged: true)
            try await harness.startAPI()
            let client = try await harness.tenant("veramo")
            let upload = try await Self.upload(harness, client)
            let body = JSONValue.object([
                "kind": "image.generate", "input": .object(["prompt": "Make it pop [[fault: flagged]]", "images": .array([.string(upload)])]),
            ])
            let id = try await harness.submit(body.canonicalJSON(), as: client)
            let job = try await harness.awaitFinished(id, as: client, within: .seconds(60))
            #expect(job["status"]?.stringValue == "failed")
            #expect(job["error"]?["code"]?.stringValue == "content_filtered", "\(job)")
            let usage = try await harness.database.query("SELECT count(*) AS calls FROM provider_usage WHERE job_id = $1::uuid", [id.rawValue])
            #expect(try usage.first?.decode("calls", as: Int.self) == 0, "refused before any image was made")
        }
    }

    @Test func badImageInputsAreA400NamingTheField() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy)
            try await harness.startAPI()
            let client = try await harness.tenant("veramo")
            let ids = (0..<5).map { _ in JSONValue.string(UUID().uuidString) }
            for (input, field) in [
                (JSONValue.object(["prompt": "x", "images": .array(ids)]), "input.images"),
                (.object(["prompt": "x", "images": .array(["not-an-id"])]), "input.images[0]"),
                (.object(["prompt": "", "style": "dreamy"]), "input.prompt"),
                (.object(["prompt": "x", "style": "vaporwave"]), "input.style"),
                (.object(["prompt": "x", "aspect_ratio": "2:1"]), "input.aspect_ratio"),
            ] {
                let body = JSONValue.object(["kind": "image.generate", "input": input]).canonicalJSON()
                let reply = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body))
                #expect(reply.status == 400)
                #expect(reply.json?["field"]?.stringValue == field)
            }
        }
    }

    @Test func talevoniasProTierGetsTheBetterStylesAndHigherResolution() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.policy)
            try await Self.start(harness)
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            func submit(_ input: JSONValue, tier: String) async throws -> (status: Int, json: JSONValue?) {
                let body = JSONValue.object(["kind": "image.illustrate", "input": input]).canonicalJSON()
                let reply = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body, headers: [("Kiln-Tier", tier)]))
                return (reply.status, reply.json)
            }
            let scene = JSONValue.object(["text": "The dragon curled around the lighthouse and fell asleep.", "style": "oil_painting"])
            let refused = try await submit(scene, tier: "free")
            #expect(refused.status == 403)
            #expect(refused.json?["code"]?.stringValue == "upgrade_required")
            #expect(refused.json?["field"]?.stringValue == "input.style")

            // gpt-image-1 makes 1536×1024 for a landscape picture, 1024×1024 for a square one: the Pro tier's HD.
            let pro = try await submit(scene, tier: "pro")
            let proID = try #require(pro.json?["id"])
            let proJob = try await Self.image(harness, client, try #require(proID.stringValue.flatMap(JobID.init(validating:))))
            #expect(proJob.job["result"]?["width"] == .number(1536))
            #expect(proJob.job["result"]?["style"]?.stringValue == "oil_painting")

            let free = try await submit(
                .object(["text": "The dragon woke up.", "style": "watercolor", "aspect_ratio": "1:1", "replaces": proID]), tier: "free")
            let freeJob = try await Self.image(harness, client, try #require(free.json?["id"]?.stringValue.flatMap(JobID.init(validating:))))
            #expect(freeJob.job["result"]?["width"] == .number(1024))
            #expect(freeJob.job["result"]?["replaces"] == proID)
        }
    }
}
