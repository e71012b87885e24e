public import KilnPolicy

/// Checks every decision of a quota load run against the tenant's policy.
///
/// Nothing finishes during a run (no worker runs, and every job is submitted with a delay that outlasts the run), so
/// an identity's admitted units and jobs only grow, and its final counts bound what it held at any moment. Two
/// checks per rule follow:
/// - **never over**: admitted units ≤ the daily limit, admitted jobs ≤ the running cap, and any two admissions of one
///   device at least one cooldown apart;
/// - **never under**: every refusal is explained by the final counts: a `daily_quota_exhausted` request of cost c did
///   not fit (admitted units + c > limit), a `concurrency_limit` came with the cap reached, and a `device_cooldown` with
///   an admission of that device less than a cooldown earlier.
///
/// Together, for requests of one cost, they say that admitted == min(attempted, limit) for every identity; with mixed
/// costs, that the limit was never passed and nothing that fitted was refused.
public struct QuotaAudit: Sendable {
    private let policy: TenantPolicy
    private var tallies: [String: IdentityTally] = [:]
    private var decisions = 0

    public init(policy: TenantPolicy) {
        self.policy = policy
    }

    public mutating func add(_ decision: Decision) {
        decisions += 1
        let request = decision.request
        tallies[request.identity, default: IdentityTally(scenario: request.scenario, tier: request.tier)].add(decision)
    }

    /// Checks what was added against what `plan` sent.
    public func verdict(plan: QuotaLoadPlan) -> AuditVerdict {
        var verdict = AuditVerdict()
        verdict.decisions = decisions
        var planned: Set<String> = []
        for burst in plan.bursts {
            planned.insert(burst.identity)
            verdict.identities += 1
            verdict.scenarios[burst.scenario, default: .init()].identities += 1
            guard let tally = tallies[burst.identity] else {
                verdict.missingDecisions += burst.requests
                verdict.findings.append(AuditFinding(.completeness, "identity \(burst.identity): no decisions, \(burst.requests) planned"))
                continue
            }
            if tally.attempts != burst.requests {
                verdict.missingDecisions += abs(tally.attempts - burst.requests)
                verdict.findings.append(
                    AuditFinding(.completeness, "identity \(burst.identity): \(tally.attempts) decisions, \(burst.requests) planned"))
            }
            verdict.scenarios[burst.scenario, default: .init()].decisions += tally.attempts
            verdict.scenarios[burst.scenario, default: .init()].admitted += tally.admittedJobs
            verdict.scenarios[burst.scenario, default: .init()].refusedWithUnitsLeft += tally.refusalsWithUnitsLeft
            verdict.admitted += tally.admittedJobs
            check(burst.identity, tally, into: &verdict)
        }
        for (identity, tally) in tallies where !planned.contains(identity) {
            verdict.missingDecisions += tally.attempts
            verdict.findings.append(AuditFinding(.completeness, "identity \(identity): \(tally.attempts) decisions, none planned"))
        }
        return verdict
    }

    private func check(_ identity: String, _ tally: IdentityTally, into verdict: inout AuditVerdict) {
        for decision in tally.unexpected {
            verdict.unexpectedAnswers += 1
            let answer = decision.status == 0 ? "no answer" : "HTTP \(decision.status)"
            let request = decision.request
            verdict.findings.append(
                AuditFinding(.answers, "identity \(identity), device \(request.device): \(answer) \(decision.reason) to \(request.kind)"))
        }
        guard let tier = policy.tiers[tally.tier] else {
            verdict.unexpectedAnswers += tally.attempts
            verdict.findings.append(AuditFinding(.answers, "identity \(identity): tier \(tally.tier) is not in the policy of \(policy.tenant)"))
            return
        }
        for (quotaClass, use) in tally.classes {
            checkDailyQuota(identity, tally, tier: tier, quotaClass: quotaClass, use: use, into: &verdict)
        }
        checkRunningCap(identity, tally, tier: tier, into: &verdict)
        for (deviceClass, timeline) in tally.devices {
            checkCooldown(identity, deviceClass, timeline, window: tier.cooldown(for: deviceClass.quotaClass), into: &verdict)
        }
    }

    private func checkDailyQuota(
        _ identity: String, _ tally: IdentityTally, tier: Tier, quotaClass: QuotaClass, use: IdentityTally.ClassUse,
        into verdict: inout AuditVerdict
    ) {
        let subject = "identity \(identity) (tier \(tier.name), \(quotaClass.rawValue))"
        guard case .units(let limit) = tier.limit(for: quotaClass) else {
            let refused = use.quotaRefusalsByCost.values.reduce(0, +)
            if refused > 0 {
                verdict.unjustifiedRefusals += refused
                verdict.findings.append(AuditFinding(.dailyQuota, "\(subject): \(refused) refused for the daily quota, which is unlimited"))
            }
            return
        }
        let numbers = "\(use.admittedUnits) units admitted of \(use.attemptedUnits) attempted, limit \(limit)"
        if use.admittedUnits > limit {
            verdict.overAdmissions += use.admittedUnits - limit
            verdict.findings.append(AuditFinding(.dailyQuota, "\(subject): \(numbers): \(use.admittedUnits - limit) over"))
        }
        let left = limit - use.admittedUnits
        for (cost, count) in use.quotaRefusalsByCost.sorted(by: { $0.key < $1.key }) {
            if cost <= left {
                verdict.unjustifiedRefusals += count
                verdict.findings.append(AuditFinding(.dailyQuota, "\(subject): \(numbers), yet \(count) of cost \(cost) refused"))
            }
        }
    }

    private func checkRunningCap(_ identity: String, _ tally: IdentityTally, tier: Tier, into verdict: inout AuditVerdict) {
        let cap = tier.runningJobCap
        let subject = "identity \(identity) (tier \(tier.name)): \(tally.admittedJobs) unfinished jobs admitted of \(tally.attempts), cap \(cap)"
        if tally.admittedJobs > cap {
            verdict.overAdmissions += tally.admittedJobs - cap
            verdict.findings.append(AuditFinding(.runningCap, "\(subject): \(tally.admittedJobs - cap) over"))
        }
        if tally.concurrencyRefusals > 0 && tally.admittedJobs < cap {
            verdict.unjustifiedRefusals += tally.concurrencyRefusals
            verdict.findings.append(AuditFinding(.runningCap, "\(subject), yet \(tally.concurrencyRefusals) refused for the cap"))
        }
    }

    private func checkCooldown(
        _ identity: String, _ deviceClass: IdentityTally.DeviceClass, _ timeline: IdentityTally.DeviceTimeline, window: Duration,
        into verdict: inout AuditVerdict
    ) {
        let windowMicros = window.components.seconds * 1_000_000 + window.components.attoseconds / 1_000_000_000_000
        let subject =
            "device \(deviceClass.device) (identity \(identity), \(deviceClass.quotaClass.rawValue), cooldown \(Double(windowMicros) / 1_000_000) s)"
        // Admission happened somewhere between sending and the answer. Two admissions certainly fell inside one window
        // when even the widest reading of their times (the first sent, the second answered) is shorter than it.
        var inside = 0
        var lastKept: IdentityTally.Interval?
        for admission in timeline.admissions.sorted(by: { $0.sentAt < $1.sentAt }) {
            if let kept = lastKept, admission.answeredAt - kept.sentAt < windowMicros {
                inside += 1
            } else {
                lastKept = admission
            }
        }
        if inside > 0 {
            verdict.overAdmissions += inside
            verdict.findings.append(
                AuditFinding(.cooldown, "\(subject): \(timeline.admissions.count) admitted, \(inside) of them inside another's cooldown"))
        }
        // A refusal is explained by an admission that could have come before it by less than the window.
        let unexplained = timeline.cooldownRefusals.filter { refusal in
            !timeline.admissions.contains { $0.sentAt <= refusal.answeredAt && refusal.sentAt < $0.answeredAt + windowMicros }
        }
        if !unexplained.isEmpty {
            verdict.unjustifiedRefusals += unexplained.count
            let numbers = "\(timeline.admissions.count) admitted, yet \(unexplained.count) refused"
            verdict.findings.append(AuditFinding(.cooldown, "\(subject): \(numbers) for a cooldown no admission started"))
        }
    }
}
