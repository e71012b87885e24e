import Foundation
import HTTPTypes
import KilnAdmission
import KilnCore
import KilnPolicy
import KilnQueue
import KilnStore
import Metrics

/// Validates, admits and enqueues one submission for a caller in one Redis round trip: the one way a job enters
/// Kiln, whether from `POST /v1/jobs`, a campaign's route or an MCP tool, so each meets the same quotas, cooldowns and
/// abuse checks and is refused with the same problem.
struct JobSubmitter {
    /// A job queued, or the one an earlier submission with the same idempotency key queued.
    struct Submitted {
        let view: JobView
        /// The quota's `Kiln-Quota-*` headers, for a metered job just queued.
        let quotaHeaders: HTTPFields
    }

    let dependencies: APIDependencies

    /// - Parameter body: a `POST /v1/jobs` body: `{"kind", "input", "priority"?, "delay_seconds"?}`.
    /// - Throws: a ``Problem``: the body is invalid, or admission refused it.
    func submit(body: [UInt8], caller: Caller, idempotencyKey: String?) async throws -> Submitted {
        let preFilter = dependencies.policies[caller.tenant.id].map { ContentPreFilter(strictness: $0.safety) }
        var (submission, lowestTierRefusal) = try SubmissionParser(catalog: dependencies.catalog, preFilter: preFilter).parse(
            body: body, caller: caller, idempotencyKey: idempotencyKey)
        let admission = Admission(policies: dependencies.policies)
        let now = dependencies.clock()
        // The one Redis round trip admission adds: whose pool, which tier (unless the tenant's server said).
        let applicant = caller.applicant
        let standing = try await dependencies.standingLookup.standing(of: applicant, at: now)
        do {
            submission.charge = try admission.charge(kind: submission.kind, applicant: applicant, standing: standing, at: now)
            if let charge = submission.charge { try admission.checkTierRules(lowestTierRefusal, charge: charge) }
        } catch {
            throw Problem(error)
        }
        let outcome = try await dependencies.queue.enqueue(submission)
        if submission.charge != nil { Self.countDecision(outcome, tenant: caller.tenant.id) }
        switch outcome {
        case .created(let id, let usage):
            var headers = HTTPFields()
            if let usage, let charge = submission.charge { headers = QuotaAnswers.headers(usage, charge) }
            return Submitted(view: JobView(submission, id: id), quotaHeaders: headers)
        case .replayed(let id):
            // The key is the caller's own, so is the job: from Redis while it is live, from PostgreSQL after.
            return Submitted(view: try await JobLookup(dependencies: dependencies).find(id, caller), quotaHeaders: [:])
        case .conflict(let id):
            var problem = Problem(.unprocessableContent, "idempotency_conflict", "this Idempotency-Key was used with a different body")
            problem.jobID = id
            throw problem
        case .denied(let denial):
            // Only a metered submission can be denied, so it has a charge.
            guard let charge = submission.charge else { throw Problem(.tooManyRequests, denial.reason.rawValue, "denied") }
            throw QuotaAnswers.denial(
                denial, charge: charge,
                upgradeAvailable: admission.upgradeAvailable(from: charge.tier, quotaClass: charge.quotaClass, tenant: caller.tenant.id),
                now: now)
        }
    }

    /// Admission decisions by tenant and outcome (`admitted` or the denial's reason), for dashboards and alerts.
    private static func countDecision(_ outcome: EnqueueOutcome, tenant: TenantID) {
        let decision: String
        switch outcome {
        case .created, .replayed: decision = "admitted"
        case .conflict: decision = "idempotency_conflict"
        case .denied(let denial): decision = denial.reason.rawValue
        }
        decisionCounters[DecisionSeries(tenant: tenant, decision: decision)].increment()
    }

    private struct DecisionSeries: Hashable, Sendable {
        let tenant: TenantID
        let decision: String
    }

    private static let decisionCounters = MetricHandles<DecisionSeries, Counter> { series in
        Counter(label: "kiln_admission_decisions_total", dimensions: [("tenant", series.tenant.rawValue), ("decision", series.decision)])
    }
}

/// A caller's own job as the API shows it.
struct JobLookup {
    let dependencies: APIDependencies

    /// The caller's job, from Redis while it is live and from PostgreSQL after; another tenant's or identity's job is
    /// not found (404, never 403: its existence is not disclosed).
    func find(_ id: JobID, _ caller: Caller) async throws -> JobView {
        if let job = try await dependencies.queue.snapshot(id, tenant: caller.tenant.id, identity: caller.identity) {
            return JobView(job)
        }
        guard let record = try await dependencies.jobs.find(id: id, tenant: caller.tenant.id), record.identity == caller.identity else {
            throw Problem.jobNotFound
        }
        return JobView(record)
    }
}
