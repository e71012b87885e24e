import HTTPTypes
import Foundation
import KilnCore
import KilnJSON
import KilnPolicy
import KilnQueue
import KilnStore

/// Turns a `POST /v1/jobs` body into a validated submission, or the 4xx that says what is wrong.
struct SubmissionParser {
    let catalog: JobKindCatalog
    /// The tenant's safety pre-filter, for tenants with a policy.
    let preFilter: ContentPreFilter?

    /// The members a submission may have.
    private static let fields: Set<String> = ["kind", "input", "priority", "delay_seconds"]

    /// The submission, and what in its input the tenant's lowest tier may not ask for (see
    /// `Admission.checkTierRules(_:charge:)`).
    func parse(body: [UInt8], caller: Caller, idempotencyKey: String?) throws -> (submission: Submission, lowestTierRefusal: InputError?) {
        guard let text = String(validating: body, as: UTF8.self), case .object(let fields)? = JSONValue.parse(text) else {
            throw Problem(
                .badRequest, "malformed_json",
                "the body must be a JSON object in UTF-8, nested at most \(JSONValue.maxDepth) deep, its numbers within a double's range")
        }
        // The first unknown member in sorted order, so the answer does not depend on the dictionary's order.
        if let unknown = fields.keys.filter({ !Self.fields.contains($0) }).min() {
            throw field(unknown, "is not a known field")
        }
        guard case .string(let kindName)? = fields["kind"] else { throw field("kind", "is required and must be a string") }
        guard let kind = catalog[kindName] else {
            var problem = Problem(.badRequest, "unknown_kind", "there is no job kind named '\(kindName)'")
            problem.field = "kind"
            throw problem
        }
        if kind.isDiagnostic && !caller.tenant.diagnostics {
            throw Problem(.forbidden, "kind_not_enabled", "diagnostic kinds are not enabled for this tenant")
        }
        guard let input = fields["input"] else { throw field("input", "is required") }
        if let path = input.pathOfNUL(under: "input") { throw field(path, "must not hold the character U+0000 (\\u0000)") }
        let admission: JobKind.Admission
        do {
            admission = try kind.admit(input)
        } catch {
            throw Problem.invalidInput(error)
        }
        if let rejection = preFilter?.check(input) {
            // Refused before anything is charged or queued; the moderation model judges the rest in the worker.
            var problem = Problem(
                .unprocessableContent, "content_rejected", "\(rejection.field) is refused by the tenant's safety filter (\(rejection.category))")
            problem.field = rejection.field
            problem.category = rejection.category
            throw problem
        }
        var priority = Priority.normal
        if let value = fields["priority"] {
            guard case .string(let text) = value, let parsed = Priority(rawValue: text) else {
                throw field("priority", "must be one of high, normal, low")
            }
            priority = parsed
        }
        var delay = Duration.zero
        if let value = fields["delay_seconds"] {
            guard case .number(let seconds) = value, seconds >= 0, seconds <= 7 * 86_400 else {
                throw field("delay_seconds", "must be a number of seconds between 0 and 604800")
            }
            delay = .milliseconds(Int64(seconds * 1000))
        }
        if let idempotencyKey {
            guard (1...255).contains(idempotencyKey.utf8.count), idempotencyKey.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
                throw Problem(.badRequest, "invalid_idempotency_key", "Idempotency-Key must be 1–255 printable characters without spaces")
            }
        }
        let canonicalInput = input.canonicalJSON()
        // Only an idempotency key needs the digest of what was submitted.
        let bodyHash =
            idempotencyKey == nil
            ? ""
            : Digest.sha256Hex(
                JSONValue.object([
                    "kind": .string(kindName), "input": input, "priority": .string(priority.rawValue),
                    "delay_ms": .number(Double(delay.milliseconds)),
                ]).canonicalJSON())
        let submission = Submission(
            tenant: caller.tenant.id, identity: caller.identity, kind: kindName, jobClass: kind.jobClass, priority: priority,
            input: canonicalInput, maxAttempts: kind.retry.maxAttempts, timeout: admission.deadline, delay: delay,
            runningCap: caller.tenant.runningCap, weight: caller.tenant.weight, idempotencyKey: idempotencyKey, bodyHash: bodyHash)
        return (submission, admission.lowestTierRefusal)
    }

    private func field(_ name: String, _ reason: String) -> Problem {
        Problem.invalidInput(InputError(field: name, reason: reason))
    }
}
