import KilnPolicy

/// What one identity was told, summed up as the audit reads its decisions: enough to check every rule without keeping
/// every decision.
struct IdentityTally: Sendable {
    let scenario: QuotaScenario
    let tier: String
    var attempts = 0
    var admittedJobs = 0
    var classes: [QuotaClass: ClassUse] = [:]
    var devices: [DeviceClass: DeviceTimeline] = [:]
    var concurrencyRefusals = 0
    /// Daily-quota refusals that said some units were left, fewer than the request cost.
    var refusalsWithUnitsLeft = 0
    /// Answers that are neither an admission nor one of admission's refusals.
    var unexpected: [Decision] = []

    init(scenario: QuotaScenario, tier: String) {
        self.scenario = scenario
        self.tier = tier
    }

    mutating func add(_ decision: Decision) {
        let request = decision.request
        attempts += 1
        classes[request.quotaClass, default: ClassUse()].attemptedUnits += request.cost
        let deviceClass = DeviceClass(device: request.device, quotaClass: request.quotaClass)
        let interval = Interval(sentAt: decision.sentAt, answeredAt: decision.answeredAt)
        switch (decision.status, decision.reason) {
        case (202, _):
            admittedJobs += 1
            classes[request.quotaClass, default: ClassUse()].admittedUnits += request.cost
            devices[deviceClass, default: DeviceTimeline()].admissions.append(interval)
        case (429, "daily_quota_exhausted"):
            classes[request.quotaClass, default: ClassUse()].quotaRefusalsByCost[request.cost, default: 0] += 1
            if let remaining = decision.remaining, remaining > 0 { refusalsWithUnitsLeft += 1 }
        case (429, "concurrency_limit"):
            concurrencyRefusals += 1
        case (429, "device_cooldown"):
            devices[deviceClass, default: DeviceTimeline()].cooldownRefusals.append(interval)
        default:
            unexpected.append(decision)
        }
    }

    /// One quota class of one identity.
    struct ClassUse: Sendable {
        var attemptedUnits = 0
        var admittedUnits = 0
        /// Refusals for the daily quota, counted by the cost of the refused request.
        var quotaRefusalsByCost: [Int: Int] = [:]
    }

    /// A device's cooldown is per quota class.
    struct DeviceClass: Hashable, Sendable {
        let device: String
        let quotaClass: QuotaClass
    }

    /// When one device was admitted and refused for its cooldown.
    struct DeviceTimeline: Sendable {
        var admissions: [Interval] = []
        var cooldownRefusals: [Interval] = []
    }

    /// Admission decided some time between sending and the answer; only that much is known of when.
    struct Interval: Sendable {
        let sentAt: Int64
        let answeredAt: Int64
    }
}
