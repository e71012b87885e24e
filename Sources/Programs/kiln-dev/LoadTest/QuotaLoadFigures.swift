import Foundation
import Histogram
import KilnPolicy
import LoadTesting

/// What a run measured, read back from the generators' decision files: the audit's verdict, every decision's latency,
/// and how long the waves ran.
struct QuotaLoadFigures {
    var verdict: AuditVerdict
    /// Microseconds from sending each request to its answer, as the generators saw it.
    var latency: Histogram<UInt64>
    var decisions = 0
    /// From each wave's first request to its last answer, summed: the time spent deciding, without the barriers between
    /// waves.
    var activeSeconds = 0.0

    init(reading paths: [String], plan: QuotaLoadPlan, policy: TenantPolicy) throws {
        var audit = QuotaAudit(policy: policy)
        var latency = Histogram<UInt64>(highestTrackableValue: 60_000_000)
        var spans = Array(repeating: (first: Int64.max, last: Int64.min), count: plan.waveCount)
        for path in paths {
            for line in try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n") {
                guard let decision = Decision(line: line), spans.indices.contains(decision.wave) else {
                    throw LoadRunError("\(path) holds a line that is not a decision of this run: \(line.prefix(200))")
                }
                audit.add(decision)
                _ = latency.record(UInt64(max(0, decision.latency)))
                spans[decision.wave].first = min(spans[decision.wave].first, decision.sentAt)
                spans[decision.wave].last = max(spans[decision.wave].last, decision.answeredAt)
                decisions += 1
            }
        }
        verdict = audit.verdict(plan: plan)
        self.latency = latency
        activeSeconds = spans.filter { $0.first <= $0.last }.reduce(0) { $0 + Double($1.last - $1.first) / 1_000_000 }
    }
}
