import KilnPolicy
import KilnQueue

extension PolicySet {
    /// Whether `job` was admitted at its tenant's lowest (free) tier; a job that was not metered has no tier and
    /// counts as not.
    func admittedAtLowestTier(_ job: ClaimedJob) -> Bool {
        guard let tier = job.tier, let policy = self[job.tenant] else { return false }
        return policy.tiers[tier]?.isLowest ?? false
    }
}
