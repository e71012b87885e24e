/// The outcome of a ``QuotaAudit``: what was checked, and everything that broke a rule.
public struct AuditVerdict: Sendable {
    /// Decisions, identities and admissions of one scenario.
    public struct ScenarioTotals: Sendable, Equatable {
        public var identities = 0
        public var decisions = 0
        public var admitted = 0
        /// Daily-quota refusals of requests that cost more than the units the refusal said were left, while some were
        /// (a cost-2 request with one unit left): admission counts units, not "any left".
        public var refusedWithUnitsLeft = 0
    }

    public var decisions = 0
    public var identities = 0
    public var admitted = 0
    public var scenarios: [QuotaScenario: ScenarioTotals] = [:]
    /// Units admitted beyond daily limits, jobs beyond running caps, and admissions inside a device's cooldown.
    public var overAdmissions = 0
    /// Refusals that the final counts do not explain: the request would have fitted.
    public var unjustifiedRefusals = 0
    /// Answers other than an admission or one of admission's refusals, and requests that got no answer.
    public var unexpectedAnswers = 0
    /// Planned requests without a decision, or decisions nobody planned.
    public var missingDecisions = 0
    public var findings: [AuditFinding] = []

    public var passed: Bool {
        overAdmissions == 0 && unjustifiedRefusals == 0 && unexpectedAnswers == 0 && missingDecisions == 0
    }
}
