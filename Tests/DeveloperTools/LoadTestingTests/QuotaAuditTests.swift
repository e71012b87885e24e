import KilnPolicy
import LoadTesting
import Testing

/// The audit's rules on decisions made up to break each of them: it passes exact outcomes and names what broke.
@Suite struct QuotaAuditTests {
    func audit(_ plan: QuotaLoadPlan, _ decisions: [Decision]) throws -> AuditVerdict {
        var audit = QuotaAudit(policy: try LoadTestPolicy.checkedIn())
        for decision in decisions { audit.add(decision) }
        return audit.verdict(plan: plan)
    }

    /// Every identity of the plan admitted `admitted(limit)` of its requests and refused the rest with `reason`.
    func answers(_ plan: QuotaLoadPlan, reason: String = "daily_quota_exhausted", admitted: (IdentityBurst) -> Int) -> [Decision] {
        plan.bursts.flatMap { LoadTestPolicy.answer($0, admitting: admitted($0), refusing: reason) }
    }

    static func limit(_ burst: IdentityBurst) -> Int {
        ["limit-1": 1, "limit-3": 3, "limit-50": 50][burst.tierName] ?? 0
    }

    @Test func admittingMinOfAttemptsAndLimitPasses() throws {
        let plan = try LoadTestPolicy.plan([.dailyQuota, .sharedPool])
        let verdict = try audit(plan, answers(plan) { min($0.requests, Self.limit($0)) })
        #expect(verdict.passed, "\(verdict.findings)")
        #expect(verdict.decisions == plan.requestCount)
        #expect(verdict.admitted == 2 * (1 + 3 + 20) + 2 * 3 * 3)
    }

    @Test func oneUnitOverTheLimitIsAnOverAdmissionNamingTheIdentity() throws {
        let plan = try LoadTestPolicy.plan([.dailyQuota])
        let verdict = try audit(plan, answers(plan) { min($0.requests, Self.limit($0) + ($0.tierName == "limit-3" ? 1 : 0)) })
        #expect(!verdict.passed)
        #expect(verdict.overAdmissions == 2)
        let finding = try #require(verdict.findings.first)
        #expect(finding.rule == .dailyQuota)
        #expect(finding.message.contains("t1-daily-quota-") && finding.message.contains("4 units admitted of 20 attempted, limit 3: 1 over"))
    }

    @Test func aRefusalWhileUnitsWereLeftIsCaught() throws {
        let plan = try LoadTestPolicy.plan([.dailyQuota])
        let verdict = try audit(plan, answers(plan) { min($0.requests, Self.limit($0)) - ($0.tierName == "limit-50" ? 1 : 0) })
        #expect(verdict.overAdmissions == 0)
        #expect(verdict.unjustifiedRefusals == 2 * 1)
    }

    @Test func aCostTwoRequestWithOneUnitLeftMustBeRefused() throws {
        let plan = try LoadTestPolicy.plan([.cost], identities: 2, requests: 4)
        // On limit-3 the requests cost 1, 2, 1, 2: admitting the first two leaves nothing; admitting 1, then refusing the
        // cost-2 one with 2 left would be wrong, and admitting all but the last is 4 units.
        let limit3 = try #require(plan.bursts.first { $0.tierName == "limit-3" })
        let exact = LoadTestPolicy.answer(limit3, admitting: 2, refusing: "daily_quota_exhausted")
        #expect(try audit(plan, exact).findings.filter { $0.rule == .dailyQuota }.isEmpty)
        let over = LoadTestPolicy.answer(limit3, admitting: 3, refusing: "daily_quota_exhausted")
        #expect(try audit(plan, over).overAdmissions == 1)
        // limit-1: the cost-1 request takes the unit; the cost-2 one could never fit.
        let limit1 = try #require(plan.bursts.first { $0.tierName == "limit-1" })
        var answers = LoadTestPolicy.answer(limit1, admitting: 0, refusing: "daily_quota_exhausted")
        answers[0].status = 202
        answers[0].reason = ""
        #expect(try audit(plan, answers).findings.filter { $0.rule == .dailyQuota }.isEmpty)
        // Refusing the cost-1 request and admitting nothing leaves a unit that fitted it.
        #expect(try audit(plan, LoadTestPolicy.answer(limit1, admitting: 0, refusing: "daily_quota_exhausted")).unjustifiedRefusals == 2)
    }

    @Test func theRunningCapHolds() throws {
        let plan = try LoadTestPolicy.plan([.runningCap], identities: 1)
        #expect(try audit(plan, answers(plan, reason: "concurrency_limit") { _ in 2 }).passed)
        let verdict = try audit(plan, answers(plan, reason: "concurrency_limit") { _ in 3 })
        #expect(verdict.overAdmissions == 2)
        #expect(verdict.findings.first?.message.contains("3 unfinished jobs admitted of 20, cap 2: 1 over") == true)
        #expect(try audit(plan, answers(plan, reason: "concurrency_limit") { _ in 1 }).unjustifiedRefusals == 2 * 19)
    }

    @Test func aDeviceIsAdmittedOncePerCooldown() throws {
        let plan = try LoadTestPolicy.plan([.cooldown], identities: 1, requests: 6)
        // Requests alternate between the phone and the tablet: admitting the first two admits each device once.
        #expect(try audit(plan, answers(plan, reason: "device_cooldown") { _ in 2 }).passed)
        let twice = try audit(plan, answers(plan, reason: "device_cooldown") { _ in 3 })
        #expect(twice.overAdmissions == 2)
        #expect(twice.findings.first?.rule == .cooldown)
        let never = try audit(plan, answers(plan, reason: "device_cooldown") { _ in 0 })
        #expect(never.unjustifiedRefusals == 2 * 6)
    }

    @Test func missingAndUnexpectedAnswersFailTheAudit() throws {
        let plan = try LoadTestPolicy.plan([.dailyQuota], identities: 1)
        var decisions = answers(plan) { min($0.requests, Self.limit($0)) }
        decisions.removeLast()
        decisions[1].status = 500
        decisions[1].reason = "internal"
        let verdict = try audit(plan, decisions)
        #expect(verdict.missingDecisions == 1)
        #expect(verdict.unexpectedAnswers == 1)
        #expect(!verdict.passed)
    }

    @Test func aDecisionSurvivesItsLine() throws {
        let plan = try LoadTestPolicy.plan([.cost], identities: 1)
        var decision = LoadTestPolicy.answer(plan.burst(0), admitting: 0, refusing: "no\tanswer")[1]
        #expect(Decision(line: Substring(decision.line))?.reason == "no answer")
        decision.reason = "daily_quota_exhausted"
        decision.remaining = 1
        #expect(Decision(line: Substring(decision.line)) == decision)
    }
}
