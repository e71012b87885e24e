import Foundation
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue
import Testing

/// Admission's decision before Redis, on the checked-in policies: what a submission is charged, or why it is refused.
@Suite struct AdmissionTests {
    static let policies = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("deploy/policies.json").path
    let admission: Admission
    let now = Date(timeIntervalSince1970: 1_790_000_000)

    init() throws {
        admission = Admission(policies: try PolicySet.load(path: Self.policies))
    }

    /// An applicant of `tenant`, with tiers named as its policy names them.
    func applicant(_ tenant: String, assertedTier: String? = nil, purchasedTier: String? = nil) throws -> Applicant {
        let id = try #require(TenantID(validating: tenant))
        let tiers = try #require(admission.policies[id]).tiers
        return Applicant(
            tenant: id, identity: try #require(Identity(validating: "user-1")), device: "device-1",
            assertedTier: try assertedTier.map { try #require(tiers[$0]) }, purchasedTier: try purchasedTier.map { try #require(tiers[$0]) })
    }

    func tier(_ name: String, of tenant: String) throws -> Tier {
        let id = try #require(TenantID(validating: tenant))
        return try #require(admission.policies[id]?.tiers[name])
    }

    @Test func aPricedKindIsChargedItsClassAndCostAtTheApplicantsTier() throws {
        let charge = try #require(try admission.charge(kind: "video.chat_export", applicant: applicant("chattale"), standing: nil, at: now))
        #expect(charge.tier.name == "free")
        #expect(charge.quotaClass == .video)
        #expect(charge.cost == 1)
        #expect(charge.limit == 3)
        #expect(charge.subject == "user-1")
        #expect(charge.device == "device-1")
    }

    @Test func aKindTheTierExcludesAsksForAnUpgrade() throws {
        let free = try tier("free", of: "chattale")
        #expect(throws: AdmissionRefusal.upgradeRequired(tier: free, field: nil, reason: "chat.generate is not part of the free tier")) {
            try admission.charge(kind: "chat.generate", applicant: applicant("chattale"), standing: nil, at: now)
        }
        let paying = try applicant("chattale", purchasedTier: "premium")
        let premium = try #require(try admission.charge(kind: "chat.generate", applicant: paying, standing: nil, at: now))
        #expect(premium.tier.name == "premium")
    }

    @Test func aKindTheTenantDoesNotPriceIsNotOfferedUnlessItIsADiagnostic() throws {
        #expect(throws: AdmissionRefusal.kindNotOffered(kind: "image.generate")) {
            try admission.charge(kind: "image.generate", applicant: applicant("chattale"), standing: nil, at: now)
        }
        #expect(try admission.charge(kind: "diag.echo", applicant: applicant("chattale"), standing: nil, at: now) == nil)
    }

    @Test func anAssertedTierMustBeTheTenantsAndIsFinal() throws {
        let chattale = try #require(TenantID(validating: "chattale"))
        #expect(throws: AdmissionRefusal.unknownTier(name: "gold")) {
            try admission.assertedTier(named: "gold", tenant: chattale)
        }
        #expect(try admission.assertedTier(named: "premium", tenant: chattale) == tier("premium", of: "chattale"))
        // A tenant without a policy meters nothing, so the tier its server names decides nothing.
        let unmetered = try #require(TenantID(validating: "unmetered"))
        #expect(try admission.assertedTier(named: "gold", tenant: unmetered) == nil)
        let standing = Standing(subject: "user-1", tier: "free")
        let server = try applicant("chattale", assertedTier: "premium")
        let asserted = try #require(try admission.charge(kind: "video.chat_export", applicant: server, standing: standing, at: now))
        #expect(asserted.tier.name == "premium")
    }

    @Test func anEntitlementOnRecordWinsOverThePurchaseUntilItExpires() throws {
        let applicant = try applicant("chattale", purchasedTier: "premium")
        let refunded = Standing(subject: "pair-7", tier: "free", expiresAt: now.addingTimeInterval(60))
        let charge = try #require(try admission.charge(kind: "video.chat_export", applicant: applicant, standing: refunded, at: now))
        #expect(charge.tier.name == "free")
        #expect(charge.subject == "pair-7")
        let lapsed = Standing(subject: "user-1", tier: "free", expiresAt: now.addingTimeInterval(-1))
        #expect(try admission.charge(kind: "video.chat_export", applicant: applicant, standing: lapsed, at: now)?.tier.name == "premium")
    }

    @Test func whatTheLowestTierMayNotAskIsAnUpgradeNamingTheField() throws {
        let free = try #require(try admission.charge(kind: "video.chat_export", applicant: applicant("chattale"), standing: nil, at: now))
        let refusal = InputError(field: "input.settings.theme", reason: "premium themes need a subscription")
        let expected = AdmissionRefusal.upgradeRequired(
            tier: try tier("free", of: "chattale"), field: "input.settings.theme", reason: "input.settings.theme: premium themes need a subscription")
        #expect(throws: expected) {
            try admission.checkTierRules(refusal, charge: free)
        }
        let paying = try applicant("chattale", purchasedTier: "premium")
        let premium = try #require(try admission.charge(kind: "video.chat_export", applicant: paying, standing: nil, at: now))
        try admission.checkTierRules(refusal, charge: premium)
        // Premium's videos are unlimited: a free identity out of them is told an upgrade would help.
        #expect(admission.upgradeAvailable(from: free.tier, quotaClass: .video, tenant: try #require(TenantID(validating: "chattale"))))
    }
}
