import Foundation
import KilnCore
import KilnPolicy
import Testing

/// A tenant policy for the identity tests: `free` (lowest) and `pro`, which the product `pro_monthly` grants.
enum TestPolicy {
    static let bundleID = "com.example.talevonia"
    static let issuer = "https://auth.example.com"
    static let audience = "talevonia"
    static let secretVariable = "TALEVONIA_JWT_SECRET"

    static func json(modes: [IdentityMode], rootPath: String = "root.pem", keys: String? = nil) -> String {
        let modeList = modes.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        var sections = ""
        if modes.contains(.appStore) {
            sections += #""app_store": {"bundle_id": "\#(bundleID)", "environment": "production", "root_certificates": ["\#(rootPath)"]},"#
        }
        if modes.contains(.jwt) {
            let keySource = keys ?? #""hs256_secret_env": "\#(secretVariable)""#
            sections += #""jwt": {"issuer": "\#(issuer)", "audience": "\#(audience)", \#(keySource)},"#
        }
        return """
            {"talevonia": {
              "identity_modes": [\(modeList)], \(sections)
              "reset_time_zone": "UTC", "safety": "standard",
              "tiers": {
                "free": {"lowest": true, "daily": {"text": 3}, "running_jobs": 1, "refund_cap": 1, "max_devices_per_day": 4},
                "pro": {"daily": {"text": 100}, "running_jobs": 3, "refund_cap": 1, "max_devices_per_day": 8, "products": ["pro_monthly"]}
              },
              "kinds": {"text.continue": {"class": "text", "cost": 1}},
              "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                        "identity_velocity": {"count": 10, "period_seconds": 60, "burst": 5},
                        "ip_velocity": {"count": 60, "period_seconds": 60, "burst": 30},
                        "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                        "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}
            }}
            """
    }

    static func policies(modes: [IdentityMode], rootPath: String = "root.pem", keys: String? = nil) throws -> PolicySet {
        try PolicySet.parse(Data(json(modes: modes, rootPath: rootPath, keys: keys).utf8))
    }

    static func policy(modes: [IdentityMode]) throws -> TenantPolicy {
        let tenant = try #require(TenantID(validating: "talevonia"))
        return try #require(try policies(modes: modes)[tenant])
    }
}
