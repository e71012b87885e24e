import Foundation
import Histogram
import LoadTesting

extension QuotaLoadCommand {
    /// Prints the scenarios' totals, the figures, and the audit's verdict with every finding (the first ten of each rule).
    func report(_ figures: QuotaLoadFigures, cpu: CPUUse, wall: Duration, plan: QuotaLoadPlan) {
        let verdict = figures.verdict
        for scenario in plan.parameters.scenarios {
            guard let totals = verdict.scenarios[scenario] else { continue }
            var line =
                "  \(scenario.rawValue): \(totals.identities) identities (tiers \(scenario.tiers.joined(separator: ", "))), "
                + "\(totals.decisions) decisions, \(totals.admitted) admitted"
            if scenario == .cost {
                line += "; \(totals.refusedWithUnitsLeft) refused with units left, fewer than their cost"
            }
            print(line)
        }
        let rate = figures.activeSeconds > 0 ? Double(figures.decisions) / figures.activeSeconds : 0
        print(
            String(
                format:
                    "decisions: %d in %.2f s of waves (each wave's first request to its last answer): %.0f/s; %.1f s in all, with setup and barriers",
                figures.decisions, figures.activeSeconds, rate, wall.seconds))
        let latency = figures.latency
        func milliseconds(_ percentile: Double) -> Double { Double(latency.valueAtPercentile(percentile)) / 1000 }
        print(
            String(
                format: "latency, request to decision (HdrHistogram, %llu decisions): p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms",
                latency.totalCount, milliseconds(50), milliseconds(99), milliseconds(99.9), Double(latency.max) / 1000))
        print(cpuLine(cpu, decisions: figures.decisions))
        print(
            "rules: per identity, admitted units ≤ the daily limit and every quota refusal needed more than was left "
                + "(one cost: admitted == min(attempted, limit)); admitted unfinished jobs ≤ the running cap, refused only at it; "
                + "per device, one admission per cooldown, refused only inside one; an identity's devices share its pool")
        print(verdictLine(verdict))
        for rule in AuditFinding.Rule.allCases {
            let findings = verdict.findings.filter { $0.rule == rule }
            for finding in findings.prefix(10) { print("  \(finding)") }
            if findings.count > 10 { print("  \(rule.rawValue): … and \(findings.count - 10) more") }
        }
    }

    private func cpuLine(_ cpu: CPUUse, decisions: Int) -> String {
        let parties = [("api", cpu.api), ("generators", cpu.generators), ("redis", cpu.redis)].compactMap { name, seconds in
            seconds.map { (name, $0) }
        }
        let perDecision = parties.map { String(format: "%@ %.0f µs", $0.0, $0.1 * 1_000_000 / Double(max(decisions, 1))) }
        let share = parties.map { String(format: "%@ %.0f%%", $0.0, $0.1 / max(cpu.elapsed.seconds, 0.001) * 100) }
        return "cpu per decision: \(perDecision.joined(separator: ", ")); share of one core while the waves ran: "
            + "\(share.joined(separator: ", ")) (\(ProcessInfo.processInfo.activeProcessorCount) cores)"
    }

    private func verdictLine(_ verdict: AuditVerdict) -> String {
        let counts =
            "\(verdict.decisions) decisions of \(verdict.identities) identities audited: \(verdict.admitted) admitted, "
            + "\(verdict.overAdmissions) over-admissions, \(verdict.unjustifiedRefusals) unjustified refusals, "
            + "\(verdict.unexpectedAnswers) unexpected answers, \(verdict.missingDecisions) missing"
        return verdict.passed ? "audit: passed: \(counts)" : "audit: FAILED: \(counts)"
    }
}
