import CurlClient
import Foundation
import KilnCore
import KilnHandlers
import KilnJSON
import KilnStore
import KilnWorker
import RenderingFixtures
import Locking
import Testing

/// What the document and sharing suites share: Talevonia's and WorldArchitect's document kinds under one policy, a
/// worker that runs them, pictures to upload, and text that every format must carry through.
enum DocumentFixtures {
    static let policy = """
        {"writers": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "America/Los_Angeles", "safety": "standard",
          "tiers": {
            "free": {"lowest": true, "daily": {"document": 50}, "running_jobs": 4, "refund_cap": 3, "max_devices_per_day": 4},
            "pro": {"daily": {"document": 500}, "running_jobs": 4, "refund_cap": 20, "max_devices_per_day": 8}
          },
          "kinds": {"document.export": {"class": "document", "cost": 1}, "share.card": {"class": "document", "cost": 1},
                    "share.publish": {"class": "document", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 100, "period_seconds": 60, "burst": 50},
                    "ip_velocity": {"count": 600, "period_seconds": 60, "burst": 300},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
        }}
        """

    /// Accents, curly quotes, a dash, emoji and right-to-left words.
    static let tricky = "Zoë’s café — “hello” 🐉 שלום עולם مرحبا"

    /// The API, and a worker with the three document kinds, whose pages are addressed at the API's own URL.
    static func start(_ harness: Harness) async throws -> Harness.Client {
        try harness.usePolicies(policy)
        let client = try await harness.tenant("writers")
        try await harness.startAPI()
        let uploads = UploadStore(pool: harness.database, objects: harness.objects)
        let policies = harness.policies.withLock { $0 }
        let dependencies = HandlerDependencies(
            policies: policies, uploads: uploads, shares: ShareStore(pool: harness.database, objects: harness.objects),
            publicURL: try harness.apiURL)
        harness.startWorker(handlers: .available(dependencies: dependencies))
        return client
    }

    /// A picture of one colour made by ffmpeg, as PNG (`png`) or JPEG (`mjpeg`).
    static func picture(color: String, width: Int = 320, height: Int = 200, codec: String = "png") async throws -> [UInt8] {
        let format = codec == "png" ? "image2pipe" : "mjpeg"
        return Array(
            try await Command.run([
                "ffmpeg", "-v", "error", "-f", "lavfi", "-i", "color=c=\(color):s=\(width)x\(height)", "-frames:v", "1", "-c:v", codec, "-f", format,
                "-",
            ]))
    }

    /// Uploads `bytes` as `identity`'s and returns the upload's id.
    static func upload(
        _ harness: Harness, _ client: Harness.Client, _ bytes: [UInt8], contentType: String = "image/png", identity: String = "user-1"
    )
        async throws -> String
    {
        let request = HTTPRequest(
            method: "POST", url: try harness.apiURL + "/v1/uploads",
            headers: ["Authorization": "Bearer \(client.key)", "Kiln-Identity": identity, "Content-Type": contentType], body: bytes)
        let reply = try await harness.send(request)
        try #require(reply.status == 201, "upload answered \(reply.status)")
        return try #require(reply.json?["id"]?.stringValue)
    }

    /// Submits `kind` with `input` (JSON) at `tier` and waits for it to finish successfully.
    static func run(
        _ harness: Harness, _ client: Harness.Client, kind: String, input: String, tier: String = "pro", identity: String = "user-1"
    ) async throws -> (id: JobID, job: JSONValue) {
        let body = #"{"kind":"\#(kind)","input":\#(input)}"#
        let reply = try await harness.send(
            try harness.request("POST", "/v1/jobs", as: client, identity: identity, body: body, headers: [("Kiln-Tier", tier)]))
        try #require(reply.status == 202, "submission answered \(reply.status): \(String(describing: reply.json))")
        let id = try #require(reply.json?["id"]?.stringValue.flatMap(JobID.init(validating:)))
        return (id, try await harness.awaitFinished(id, as: client, identity: identity))
    }

    /// The artifact `name` of a finished job, written to `directory`; returns its path and content type.
    static func artifact(
        _ harness: Harness, _ client: Harness.Client, _ id: JobID, _ name: String, into directory: String, identity: String = "user-1"
    )
        async throws -> (path: String, contentType: String?)
    {
        let reply = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)/artifacts/\(name)", as: client, identity: identity))
        try #require(reply.status == 200, "artifact \(name) answered \(reply.status)")
        let path = (directory as NSString).appendingPathComponent(name)
        try Data(reply.response.body).write(to: URL(fileURLWithPath: path))
        return (path, reply.response.header("Content-Type"))
    }

    /// A reading path of three nodes, the second illustrated, with a cover, as JSON.
    static func story(cover: String?, illustration: String?, title: String = "The Lantern Keeper") -> String {
        let coverField = cover.map { #","cover":"\#($0)""# } ?? ""
        let image = illustration.map { #","image":"\#($0)""# } ?? ""
        return #"""
            {"title":"\#(title)","author":"Mira"\#(coverField),"nodes":[
              {"title":"The lighthouse","text":"Élodie climbed the stairs.\n\n\#(tricky)"},
              {"text":"A ship’s bell rang in the dark."\#(image)},
              {"title":"Morning","text":"By dawn the sea was calm."}]}
            """#
    }
}
