import Foundation
import KilnCore
import KilnPolicy
import Testing

/// The checked-in `deploy/policies.json` loads, and holds the numbers of the apps' seeds.
@Suite struct CheckedInPoliciesTests {
    let policies: PolicySet

    init() throws {
        policies = try PolicySet.load(path: PolicyDocument.checkedInPath)
    }

    func policy(_ tenant: String) throws -> TenantPolicy {
        try policies.policy(tenant)
    }

    @Test func everyAppAndTheLoadTestHaveASection() {
        #expect(Set(policies.tenants.keys.map(\.rawValue)) == ["talevonia", "chattale", "worldarchitect", "veramo", "joanie", "loadtest"])
    }

    /// docs/privacy.md: Talevonia keeps no story past its job, Joanie no drawing past a day; a tenant without a
    /// section keeps 30 days of everything.
    @Test func retentionIsShortWhereTheSeedsPromisePrivacy() throws {
        func days(_ tenant: String) throws -> [Int64] {
            let retention = try policy(tenant).retention
            return [retention.inputs, retention.uploads, retention.results, retention.artifacts].map { $0.components.seconds / 86_400 }
        }
        #expect(try days("talevonia") == [0, 1, 1, 30])
        #expect(try days("joanie") == [1, 1, 7, 7])
        #expect(try days("chattale") == [7, 7, 7, 7])
        #expect(try days("worldarchitect") == [30, 30, 30, 30])
        #expect(try days("veramo") == [30, 30, 30, 365])
        #expect(try policy("loadtest").retention == .standard)
        let month = Duration.seconds(30 * 86_400)
        #expect(RetentionPeriods.standard == RetentionPeriods(inputs: month, uploads: month, results: month, artifacts: month))
    }

    @Test func talevoniaHasItsSeedsLimits() throws {
        let talevonia = try policy("talevonia")
        #expect(talevonia.identityModes == [.appStore])
        let free = talevonia.lowestTier
        #expect(free.name == "free")
        #expect(free.limit(for: .text) == .units(3))
        #expect(free.limit(for: .image) == .units(1))
        let pro = try #require(talevonia.tiers["pro"])
        #expect(pro.limit(for: .text) == .units(1000))
        #expect(pro.limit(for: .image) == .units(50))
        #expect(talevonia.tier(forProduct: "talevonia_pro_yearly") == pro)
        #expect(free.runningJobCap == 1 && pro.runningJobCap == 3)
        #expect(free.cooldown(for: .image) == .seconds(20) && pro.cooldown(for: .image) == .seconds(2))
        #expect(free.refundCap == 3 && pro.refundCap == 20)
        #expect(free.maxDevicesPerDay == 4 && pro.maxDevicesPerDay == 8)
    }

    @Test func appStoreAppsVerifyProductionTransactionsAgainstApplesRoot() throws {
        for tenant in ["talevonia", "chattale"] {
            let appStore = try #require(try policy(tenant).appStore)
            #expect(appStore.bundleID == "com.example.\(tenant)")
            #expect(appStore.environment == .production)
            #expect(appStore.rootCertificates.map(\.value) == ["apple/AppleRootCA-G3.pem"])
            #expect(appStore.rootCertificates.first?.field == "\(tenant).app_store.root_certificates[0]")
            #expect(try policy(tenant).jwt == nil)
        }
    }

    @Test func worldArchitectHasAnMCPEndpointForItsSignInsTokens() throws {
        let mcp = try #require(try policy("worldarchitect").mcp)
        #expect(mcp.resource.absoluteString == "http://127.0.0.1:8787/mcp/worldarchitect")
        #expect(mcp.metadataURL == "http://127.0.0.1:8787/.well-known/oauth-protected-resource/mcp/worldarchitect")
        #expect(mcp.authorizationServers == ["https://securetoken.google.com/worldarchitect"])
        #expect(try policy("talevonia").mcp == nil)
    }

    @Test func appsWithTheirOwnSignInNameTheirKeysWithoutHoldingThem() throws {
        let worldArchitect = try #require(try policy("worldarchitect").jwt)
        #expect(worldArchitect.issuer == "https://securetoken.google.com/worldarchitect")
        #expect(worldArchitect.audience == "worldarchitect")
        #expect(worldArchitect.keys == .jwksFile(PolicyReference(value: "jwks/worldarchitect.json", field: "worldarchitect.jwt.jwks_file")))
        let veramo = try #require(try policy("veramo").jwt)
        #expect(veramo.audience == "authenticated")
        #expect(veramo.keys == .hs256SecretVariable(PolicyReference(value: "KILN_VERAMO_JWT_SECRET", field: "veramo.jwt.hs256_secret_env")))
        let joanie = try #require(try policy("joanie").jwt)
        #expect(joanie.keys == .hs256SecretVariable(PolicyReference(value: "KILN_JOANIE_JWT_SECRET", field: "joanie.jwt.hs256_secret_env")))
        #expect(try policy("joanie").appStore == nil)
    }

    @Test func chatTaleGivesThreeFreeExportsAndTheGeneratorOnlyToPremium() throws {
        let chatTale = try policy("chattale")
        let free = chatTale.lowestTier
        let premium = try #require(chatTale.tiers["premium"])
        #expect(free.limit(for: .video) == .units(3))
        #expect(premium.limit(for: .video) == .unlimited)
        #expect(chatTale.cost(of: "chat.generate", tier: free) == .excludedFromTier)
        #expect(chatTale.cost(of: "chat.generate", tier: premium) == .units(1, of: .text))
        #expect(chatTale.cost(of: "video.chat_export", tier: free) == .units(1, of: .video))
        // The seed's RevenueCat products and entitlement.
        #expect(chatTale.tier(forProduct: "chattale_monthly") == premium)
        #expect(chatTale.tier(forProduct: "chattale_yearly") == premium)
        #expect(chatTale.tier(forEntitlement: "premium") == premium)
    }

    @Test func veramoIsPaywalledAfterItsTrial() throws {
        let veramo = try policy("veramo")
        #expect(veramo.identityModes == [.jwt])
        #expect(veramo.cost(of: "image.generate", tier: veramo.lowestTier) == .excludedFromTier)
        let premium = try #require(veramo.tier(forEntitlement: "premium"))
        #expect(veramo.cost(of: "image.generate", tier: premium) == .units(1, of: .image))
    }

    @Test func signedInAppsAcceptTheirOwnTokens() throws {
        #expect(try policy("worldarchitect").identityModes == [.jwt, .trustedServer])
        #expect(try policy("joanie").identityModes == [.jwt])
        #expect(try policy("veramo").identityModes == [.jwt])
    }

    @Test func joanieIsTheStrictest() throws {
        let joanie = try policy("joanie")
        #expect(joanie.safety == .child)
        #expect(joanie.safety == SafetyStrictness.allCases.last)
        #expect(try policy("worldarchitect").safety == .fiction)
    }

    @Test(arguments: [
        ("talevonia", "text.continue", QuotaClass.text), ("talevonia", "text.opening", .text),
        ("talevonia", "image.illustrate", .image), ("talevonia", "image.cover", .image),
        ("talevonia", "document.export", .document), ("talevonia", "share.card", .document),
        ("talevonia", "share.publish", .document),
        ("chattale", "chat.generate", .text), ("chattale", "video.chat_export", .video),
        ("worldarchitect", "campaign.open", .story), ("worldarchitect", "campaign.turn", .story),
        ("worldarchitect", "document.export", .document),
        ("veramo", "image.generate", .image),
        ("joanie", "story.from_drawings", .story), ("joanie", "story.continue", .story),
    ])
    func everyKindOfTheIssuesIsPriced(tenant: String, kind: String, quotaClass: QuotaClass) throws {
        let kindCost = try #require(policy(tenant).kinds[kind])
        #expect(kindCost.quotaClass == quotaClass)
        #expect(kindCost.cost == 1)
    }

    @Test func abuseThresholdsAreTheReferencesStartingPoints() {
        for policy in policies.tenants.values where policy.tenant.rawValue != "loadtest" {
            let abuse = policy.abuse
            #expect(abuse.shadowMode)
            #expect(abuse.maxIdentitiesPerDevicePerDay == 3)
            #expect(abuse.identityVelocity.count == 10 && abuse.identityVelocity.period == .seconds(60) && abuse.identityVelocity.burst == 5)
            #expect(abuse.ipVelocity.count == 60 && abuse.ipVelocity.period == .seconds(60) && abuse.ipVelocity.burst == 30)
            #expect(abuse.safetyRejections.minimumCount == 3 && abuse.safetyRejections.ratio == 0.3)
            #expect(abuse.escalation.cooldown == .seconds(600) && abuse.escalation.block == .seconds(86_400))
            #expect(policy.resetTimeZone.identifier == "America/Los_Angeles")
        }
    }

    @Test func theLoadTestIsNeverSlowedByVelocity() throws {
        let abuse = try policy("loadtest").abuse
        #expect(abuse.shadowMode)
        #expect(abuse.identityVelocity.burst >= 1000 && abuse.ipVelocity.count >= 1_000_000 && abuse.ipVelocity.period == .seconds(1))
    }
}
