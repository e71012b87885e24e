import KilnPolicy
import Testing

@Suite struct CostTests {
    func talevonia(_ edits: Edit...) throws -> TenantPolicy {
        try PolicyDocument.parse(applying: edits).policy("talevonia")
    }

    @Test func aKindCostsItsUnitsInItsClass() throws {
        let policy = try talevonia()
        #expect(policy.cost(of: "text.continue", tier: policy.lowestTier) == .units(1, of: .text))
        #expect(policy.cost(of: "image.cover", tier: policy.lowestTier) == .units(1, of: .image))
        #expect(policy.cost(of: "video.chat_export", tier: policy.lowestTier) == .notOffered)
    }

    @Test func aTierMayPayMoreForTheSameKind() throws {
        // An HD illustration for pro identities costs two units.
        let policy = try talevonia(.set("talevonia", "kinds", "image.illustrate", "cost_by_tier", to: #"{"pro":2}"#))
        let pro = try #require(policy.tiers["pro"])
        #expect(policy.cost(of: "image.illustrate", tier: pro) == .units(2, of: .image))
        #expect(policy.cost(of: "image.illustrate", tier: policy.lowestTier) == .units(1, of: .image))
        #expect(policy.cost(of: "image.cover", tier: pro) == .units(1, of: .image))
    }

    @Test func unknownGrantsAndClassesGiveNothing() throws {
        let policy = try talevonia()
        #expect(policy.tier(forProduct: "com.other.app.pro") == nil)
        #expect(policy.tier(forEntitlement: "premium") == nil)
        #expect(policy.lowestTier.limit(for: .video) == .units(0))
        #expect(policy.lowestTier.cooldown(for: .document) == .zero)
    }

    @Test(arguments: [
        (2, 2, false),  // under the minimum count, whatever the ratio
        (3, 10, false),  // exactly the ratio does not trip it
        (4, 10, true),
        (3, 9, true),
    ])
    func safetyRejectionsTripOnBothCountAndShare(rejections: Int, jobs: Int, trips: Bool) throws {
        // At least 3 rejections and more than 30 % of the day's jobs.
        let threshold = try talevonia().abuse.safetyRejections
        #expect(threshold.isExceeded(count: rejections, outOf: jobs) == trips)
    }
}
