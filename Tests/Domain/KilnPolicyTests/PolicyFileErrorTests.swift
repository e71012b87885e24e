import Foundation
import KilnPolicy
import Testing

/// A wrong policy file is refused with a message naming the field.
@Suite struct PolicyFileErrorTests {
    /// The checked-in file with some edits, and the message it must be refused with.
    struct Mistake: Sendable, CustomTestStringConvertible {
        let edits: [Edit]
        let message: String
        var testDescription: String { message }

        init(_ message: String, _ edits: Edit...) {
            self.edits = edits
            self.message = message
        }
    }

    static let mistakes: [Mistake] = [
        Mistake(
            #"talevonia.tiers.pro.daily.image: expected a whole number ≥ 0 or "unlimited""#,
            .set("talevonia", "tiers", "pro", "daily", "image", to: "-1")),
        Mistake(
            #"talevonia.tiers.pro.daily.image: expected a whole number ≥ 0 or "unlimited""#,
            .set("talevonia", "tiers", "pro", "daily", "image", to: "2.5")),
        Mistake(
            #"talevonia.tiers.pro.daily.image: expected a whole number ≥ 0 or "unlimited""#,
            .set("talevonia", "tiers", "pro", "daily", "image", to: #""lots""#)),
        Mistake("talevonia.tiers.pro.daily.text: too large: at most 1000000000", .set("talevonia", "tiers", "pro", "daily", "text", to: "1e12")),
        Mistake(
            "talevonia.tiers.pro.daily.imgae: not a quota class: expected one of text, image, video, story, document",
            .set("talevonia", "tiers", "pro", "daily", "imgae", to: "50")),
        Mistake(
            "chattale.tiers.premium.dailly: unknown field",
            .remove("chattale", "tiers", "premium", "daily"), .set("chattale", "tiers", "premium", "dailly", to: #"{"video":"unlimited"}"#)),
        Mistake(#"joanie.reset_time_zone: unknown time zone "Mars/Base""#, .set("joanie", "reset_time_zone", to: #""Mars/Base""#)),
        Mistake("talevonia.kinds.text.continue.cost: required", .remove("talevonia", "kinds", "text.continue", "cost")),
        Mistake("talevonia.kinds.text.continue.cost: expected a whole number ≥ 1", .set("talevonia", "kinds", "text.continue", "cost", to: "0")),
        Mistake(
            #"talevonia.kinds.image.cover.class: expected one of text, image, video, story, document (got "picture")"#,
            .set("talevonia", "kinds", "image.cover", "class", to: #""picture""#)),
        Mistake(
            "talevonia.kinds.Text.Continue: not a kind name: expected domain.action, each of a-z, 0-9 and _, starting with a letter",
            .set("talevonia", "kinds", "Text.Continue", to: #"{"class":"text","cost":1}"#)),
        Mistake("worldarchitect.kinds: expected at least one kind", .set("worldarchitect", "kinds", to: "{}")),
        Mistake(
            #"talevonia.kinds.image.illustrate.cost_by_tier.platinum: no tier "platinum" is defined"#,
            .set("talevonia", "kinds", "image.illustrate", "cost_by_tier", to: #"{"platinum":2}"#)),
        Mistake(#"talevonia.tiers: no tier has "lowest": true"#, .remove("talevonia", "tiers", "free", "lowest")),
        Mistake(#"talevonia.tiers.pro.lowest: tier "free" is already the lowest"#, .set("talevonia", "tiers", "pro", "lowest", to: "true")),
        Mistake(
            "talevonia.tiers.Pro: not a tier name: expected 1–32 characters of a-z, 0-9 and -, not starting with -",
            .set("talevonia", "tiers", "Pro", to: "{}")),
        Mistake(
            #"chattale.tiers.free.excluded_kinds[0]: no kind "chat.generat" is defined"#,
            .set("chattale", "tiers", "free", "excluded_kinds", to: #"["chat.generat"]"#)),
        Mistake(
            "chattale.tiers.free.daily.text: required by kind chat.generate (or list the kind in excluded_kinds)",
            .remove("chattale", "tiers", "free", "excluded_kinds")),
        Mistake(
            #"chattale.tiers.premium.products[1]: "chattale_monthly" is listed twice"#,
            .set("chattale", "tiers", "premium", "products", to: #"["chattale_monthly","chattale_monthly"]"#)),
        Mistake(
            #"chattale.tiers.premium.products[1]: "chattale_yearly" already grants tier "gold""#,
            .set(
                "chattale", "tiers", "gold",
                to: #"{"daily":{"text":1,"video":1},"running_jobs":1,"refund_cap":0,"max_devices_per_day":1,"products":["chattale_yearly"]}"#)),
        Mistake(
            "chattale.tiers.free.products[0]: the lowest tier is what identities have without a purchase: nothing grants it",
            .set("chattale", "tiers", "free", "products", to: #"["chattale_monthly"]"#)),
        Mistake(
            "talevonia.tiers.pro.device_cooldown_seconds.video: the tier has no daily limit for video",
            .set("talevonia", "tiers", "pro", "device_cooldown_seconds", "video", to: "5")),
        Mistake("talevonia.tiers.pro.running_jobs: expected a whole number ≥ 1", .set("talevonia", "tiers", "pro", "running_jobs", to: "0")),
        Mistake("talevonia.tiers.free.refund_cap: required", .remove("talevonia", "tiers", "free", "refund_cap")),
        Mistake(
            #"veramo.identity_modes[1]: expected one of app_store, jwt, anonymous_device, trusted_server (got "oauth")"#,
            .set("veramo", "identity_modes", to: #"["jwt","oauth"]"#)),
        Mistake(#"veramo.identity_modes[1]: "jwt" is listed twice"#, .set("veramo", "identity_modes", to: #"["jwt","jwt"]"#)),
        Mistake("veramo.identity_modes: expected at least one identity mode", .set("veramo", "identity_modes", to: "[]")),
        Mistake("talevonia.app_store: required by identity mode app_store", .remove("talevonia", "app_store")),
        Mistake(
            "joanie.app_store: only for tenants whose identity_modes include app_store",
            .set("joanie", "app_store", to: #"{"bundle_id":"com.example.joanie","environment":"production","root_certificates":["a.pem"]}"#)),
        Mistake("talevonia.app_store.bundle_id: required", .remove("talevonia", "app_store", "bundle_id")),
        Mistake(
            #"talevonia.app_store.environment: expected one of production, sandbox (got "Production")"#,
            .set("talevonia", "app_store", "environment", to: #""Production""#)),
        Mistake(
            "talevonia.app_store.root_certificates: expected at least one root certificate",
            .set("talevonia", "app_store", "root_certificates", to: "[]")),
        Mistake("talevonia.app_store.app_apple_id: expected a whole number ≥ 1", .set("talevonia", "app_store", "app_apple_id", to: #""123""#)),
        Mistake("talevonia.app_store.team_id: unknown field", .set("talevonia", "app_store", "team_id", to: #""ABCDE12345""#)),
        Mistake("veramo.jwt: required by identity mode jwt", .remove("veramo", "jwt")),
        Mistake("joanie.jwt.audience: required", .remove("joanie", "jwt", "audience")),
        Mistake(
            "joanie.jwt.hs256_secret_env: expected the name of an environment variable (A-Z, a-z, 0-9 and _), not the secret itself",
            .set("joanie", "jwt", "hs256_secret_env", to: #""c2VjcmV0IQ==""#)),
        Mistake("joanie.jwt: give hs256_secret_env or jwks_file, not both", .set("joanie", "jwt", "jwks_file", to: #""jwks/joanie.json""#)),
        Mistake(
            "joanie.jwt: required: hs256_secret_env (an HS256 secret) or jwks_file (RS256 and ES256 keys)",
            .remove("joanie", "jwt", "hs256_secret_env")),
        Mistake(#"joanie.safety: expected one of fiction, standard, strict, child (got "lenient")"#, .set("joanie", "safety", to: #""lenient""#)),
        Mistake("talevonia.abuse.refund_ratio.ratio: expected a number from 0 to 1", .set("talevonia", "abuse", "refund_ratio", "ratio", to: "1.5")),
        Mistake("talevonia.abuse.shadow_mode: expected true or false", .set("talevonia", "abuse", "shadow_mode", to: #""yes""#)),
        Mistake("talevonia.abuse.escalation: required", .remove("talevonia", "abuse", "escalation")),
        Mistake(
            "talevonia.abuse.ip_velocity.period_seconds: expected a whole number ≥ 1",
            .set("talevonia", "abuse", "ip_velocity", "period_seconds", to: "0")),
        Mistake("talevonia.abuse.blocklist: unknown field", .set("talevonia", "abuse", "blocklist", to: "[]")),
        Mistake(
            "joanie.retention.uploads_days: expected a whole number ≥ 0", .set("joanie", "retention", "uploads_days", to: "-1")),
        Mistake("joanie.retention.results_days: expected a whole number ≥ 0", .set("joanie", "retention", "results_days", to: "0.5")),
        Mistake("joanie.retention.artifacts_days: too large: at most 3650", .set("joanie", "retention", "artifacts_days", to: "3651")),
        Mistake("joanie.retention.inputs_days: required", .remove("joanie", "retention", "inputs_days")),
        Mistake(
            "joanie.retention.records_days: at least inputs_days, results_days and artifacts_days (7): a job's record goes last",
            .set("joanie", "retention", "records_days", to: "6")),
        Mistake("joanie.retention.records_days: expected a whole number ≥ 0", .set("joanie", "retention", "records_days", to: "-1")),
        Mistake(
            "worldarchitect.mcp.resource: expected the endpoint's absolute http(s) address, without a fragment",
            .set("worldarchitect", "mcp", "resource", to: #""ftp://kiln.example/mcp""#)),
        Mistake(
            "worldarchitect.mcp.authorization_servers: expected at least one authorization server",
            .set("worldarchitect", "mcp", "authorization_servers", to: "[]")),
        Mistake("worldarchitect.mcp.allowed_hosts: unknown field", .set("worldarchitect", "mcp", "allowed_hosts", to: "[]")),
        Mistake(
            "talevonia.mcp: the MCP endpoint takes the app's JWTs: it needs the jwt identity mode",
            .set("talevonia", "mcp", to: #"{"resource": "https://kiln.example/mcp/talevonia", "authorization_servers": ["https://a.example"]}"#)),
        Mistake("joanie.retention.drawings_days: unknown field", .set("joanie", "retention", "drawings_days", to: "1")),
        Mistake("joanie.retention: expected an object", .set("joanie", "retention", to: "7")),
        Mistake(
            "Tale Vonia: not a tenant id: expected 1–63 characters of a-z, 0-9 and -, not starting with -",
            .set("Tale Vonia", to: "{}")),
        Mistake("joanie: expected an object", .set("joanie", to: "true")),
    ]

    @Test(arguments: mistakes)
    func aWrongFieldIsNamed(mistake: Mistake) throws {
        let error = #expect(throws: PolicyError.self) { try PolicyDocument.parse(applying: mistake.edits) }
        #expect(error?.description == mistake.message)
    }

    @Test(arguments: [
        (#"{"talevonia": }"#, "not valid JSON (Invalid value around character 14.)"),
        ("[]", "expected an object"),
        ("{}", "no tenants: expected an object whose keys are tenant ids"),
    ])
    func aWrongDocumentIsRefused(text: String, message: String) {
        let error = #expect(throws: PolicyError.self) { try PolicySet.parse(Data(text.utf8)) }
        #expect(error?.field == "")
        #expect(error?.description == message)
    }

    @Test(arguments: [
        ("/nonexistent/policies.json", "cannot read /nonexistent/policies.json: No such file or directory"),
        ("/tmp", "cannot read /tmp: Is a directory"),
    ])
    func anUnreadableFileIsNamedWithTheReason(path: String, message: String) {
        let error = #expect(throws: PolicyError.self) { try PolicySet.load(path: path) }
        #expect(error?.description == message)
    }
}
