import Foundation
import KilnCore

extension TenantPolicy {
    /// One tenant's section of the policy file.
    init(tenant: TenantID, parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: [
            "identity_modes", "app_store", "jwt", "reset_time_zone", "safety", "tiers", "kinds", "abuse", "partners",
            "retention", "mcp",
        ])

        var identityModes: Set<IdentityMode> = []
        let modesField = try object.required("identity_modes")
        for element in try modesField.elements() {
            let mode = try element.oneOf(IdentityMode.self)
            guard identityModes.insert(mode).inserted else { throw element.failure("\"\(mode.rawValue)\" is listed twice") }
        }
        guard !identityModes.isEmpty else { throw modesField.failure("expected at least one identity mode") }
        let appStore = try Self.settings(of: .appStore, in: object, modes: identityModes, parse: AppStoreSettings.init(parsing:))
        let jwt = try Self.settings(of: .jwt, in: object, modes: identityModes, parse: JWTSettings.init(parsing:))
        let mcp = try object.optional("mcp").map { mcpField throws(PolicyError) in
            guard jwt != nil else { throw mcpField.failure("the MCP endpoint takes the app's JWTs: it needs the jwt identity mode") }
            return try MCPSettings(parsing: mcpField)
        }

        let zoneField = try object.required("reset_time_zone")
        let zoneName = try zoneField.string()
        guard let resetTimeZone = TimeZone(identifier: zoneName) else { throw zoneField.failure("unknown time zone \"\(zoneName)\"") }

        let safety = try object.required("safety").oneOf(SafetyStrictness.self)

        // Kinds name tiers (`cost_by_tier`) and tiers name kinds (`excluded_kinds`): the tier names are checked
        // first, then kinds are read against them, then tiers against the kinds.
        let tierEntries = try object.required("tiers").entries()
        var tierNames: Set<String> = []
        for (name, tierField) in tierEntries {
            guard Self.isValidTierName(name) else {
                throw tierField.failure("not a tier name: expected 1–32 characters of a-z, 0-9 and -, not starting with -")
            }
            tierNames.insert(name)
        }

        let kindsField = try object.required("kinds")
        var kinds: [String: KindCost] = [:]
        for (name, kindField) in try kindsField.entries() {
            guard Self.isValidKindName(name) else {
                throw kindField.failure("not a kind name: expected domain.action, each of a-z, 0-9 and _, starting with a letter")
            }
            kinds[name] = try KindCost(parsing: kindField, tierNames: tierNames)
        }
        guard !kinds.isEmpty else { throw kindsField.failure("expected at least one kind") }

        var tiers: [Tier] = []
        for (name, tierField) in tierEntries {
            tiers.append(try Tier(name: name, parsing: tierField, kinds: kinds, earlierTiers: tiers))
        }
        guard let lowestTier = tiers.first(where: \.isLowest) else {
            throw field.failure(at: "tiers", "no tier has \"lowest\": true")
        }

        self.init(
            tenant: tenant,
            identityModes: identityModes,
            appStore: appStore,
            jwt: jwt,
            mcp: mcp,
            tiers: Dictionary(uniqueKeysWithValues: tiers.map { ($0.name, $0) }),
            lowestTier: lowestTier,
            kinds: kinds,
            resetTimeZone: resetTimeZone,
            abuse: try AbuseThresholds(parsing: object.required("abuse")),
            safety: safety,
            partnerUnlinkCooldown: try object.optional("partners").map { partners throws(PolicyError) in
                try partners.object(allowing: ["unlink_cooldown_seconds"]).required("unlink_cooldown_seconds").seconds(atLeast: 0)
            },
            retention: try object.optional("retention").map { retention throws(PolicyError) in try RetentionPeriods(parsing: retention) }
                ?? .standard
        )
    }

    /// The section of `mode`'s settings, keyed by the mode's name: required when the tenant accepts the mode, since
    /// nothing could be verified without it, and refused otherwise, since it would be configuration that does nothing.
    private static func settings<Settings>(
        of mode: IdentityMode, in object: PolicyObject, modes: Set<IdentityMode>, parse: (PolicyField) throws(PolicyError) -> Settings
    ) throws(PolicyError) -> Settings? {
        switch (object.optional(mode.rawValue), modes.contains(mode)) {
        case (let section?, true): return try parse(section)
        case (nil, true): throw object.field.failure(at: mode.rawValue, "required by identity mode \(mode.rawValue)")
        case (let section?, false): throw section.failure("only for tenants whose identity_modes include \(mode.rawValue)")
        case (nil, false): return nil
        }
    }

    /// Tier names appear in answers to apps and in the ledger: the same alphabet as tenant ids, shorter.
    private static func isValidTierName(_ name: String) -> Bool {
        name.utf8.count <= 32 && TenantID(validating: name) != nil
    }

    /// `domain.action`, as job kinds are named: `text.continue`, `video.chat_export`.
    private static func isValidKindName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2
            && parts.allSatisfy { part in
                guard let first = part.utf8.first, first >= 0x61 && first <= 0x7A else { return false }
                return part.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }
            }
    }
}
