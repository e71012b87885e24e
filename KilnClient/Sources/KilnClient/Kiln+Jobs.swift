import Foundation

extension Kiln {
    /// Submits a job of `kind`. The `idempotencyKey` (a new UUID when not given) goes with every try of this call, so a
    /// submission retried after a lost answer makes one job, not two; give your own to make a retry of your own safe
    /// too (the same key with the same input returns the same job). The `priority` is `high`, `normal` (the server's
    /// default) or `low`.
    public func submit<Input, Result>(
        _ kind: Kind<Input, Result>, input: Input, idempotencyKey: String? = nil, priority: String? = nil
    ) async throws -> SubmittedJob<Result> {
        let key = idempotencyKey ?? UUID().uuidString.lowercased()
        let body = try Body.json(Submission(kind: kind.name, input: input, priority: priority))
        let answer = try await call(.submit, body: body, headers: [("Idempotency-Key", key)], as: Job<Result>.self)
        return SubmittedJob(id: answer.id, kind: kind)
    }

    /// The job as it is now: status, progress, result, error, artifacts.
    public func job<Result>(_ job: SubmittedJob<Result>) async throws -> Job<Result> {
        try await call(.job, ["id": job.id.rawValue], as: Job<Result>.self)
    }

    /// Cancels the job: a queued one at once, a running one within a second. A finished one is a ``KilnError``
    /// `job_finished`.
    @discardableResult
    public func cancel<Result>(_ job: SubmittedJob<Result>) async throws -> Job<Result> {
        try await call(.cancel, ["id": job.id.rawValue], as: Job<Result>.self)
    }

    /// The job's events from its first (or the first after a relaunch: the stream replays what it holds), until it
    /// ends. See ``JobEvents``.
    public func events<Result>(of job: SubmittedJob<Result>) -> JobEvents<Result> {
        JobEvents(kiln: self, job: job)
    }

    /// Waits for the job to end, following its events (each passed to `onEvent` as it comes: text to show as it is
    /// written, progress); returns its result, or throws the ``KilnError`` it ended with.
    public func result<Result>(of job: SubmittedJob<Result>, onEvent: (JobEvent<Result>) -> Void = { _ in }) async throws -> Result {
        for try await event in events(of: job) {
            onEvent(event)
            if case .succeeded(let result) = event { return result }
        }
        throw KilnError(code: "connection_failed", detail: "the event stream of job \(job.id) ended before the job")
    }
}

/// The body of `POST /v1/jobs` (the `Submission` schema).
private struct Submission<Input: Encodable>: Encodable {
    let kind: String
    let input: Input
    let priority: String?
}
