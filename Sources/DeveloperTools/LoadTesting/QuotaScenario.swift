/// One scenario of the quota load test: which tiers and kinds its identities use and from how many devices, so that
/// one rule of admission is what decides.
///
/// The tiers and kinds are those of the `loadtest` section of `deploy/policies.json`; their numbers (limits, caps,
/// cooldowns, costs) are read from the policy, never assumed here.
public enum QuotaScenario: String, CaseIterable, Codable, Sendable {
    /// Daily quota exactness: identities on tiers with daily limits of 1, 3 and 50.
    case dailyQuota = "daily-quota"
    /// A cost-1 and a cost-2 kind mixed on the same identities: a cost-2 request with one unit left must be refused.
    case cost
    /// A tier whose cap on unfinished jobs is below its daily limit: nothing finishes, so the cap is all that is admitted.
    case runningCap = "running-cap"
    /// Two devices per identity on a tier whose device cooldown outlasts the run: one admission per device.
    case cooldown
    /// An identity's iPhone, iPad and Mac at once: one daily pool between them.
    case sharedPool = "shared-pool"

    /// The tiers the scenario's identities take in turn, asserted with `Kiln-Tier`.
    public var tiers: [String] {
        switch self {
        case .dailyQuota, .cost: ["limit-1", "limit-3", "limit-50"]
        case .runningCap: ["capped"]
        case .cooldown: ["cooldown"]
        case .sharedPool: ["limit-3"]
        }
    }

    /// The kinds an identity's requests take in turn.
    public var kinds: [String] {
        self == .cost ? ["diag.echo", "diag.sleep"] : ["diag.echo"]
    }

    /// The devices an identity's requests come from in turn.
    public var devices: [String] {
        switch self {
        case .cooldown: ["phone", "tablet"]
        case .sharedPool: ["iphone", "ipad", "mac"]
        case .dailyQuota, .cost, .runningCap: ["phone"]
        }
    }
}
