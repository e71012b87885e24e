import KilnCore
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker

/// What every kind that asks a text model shares: the tenant's route, one call with its deltas relayed to the job's
/// event stream and its usage recorded, and the safety filter with its one safer regeneration.
struct TextGenerator: Sendable {
    /// Appended to the instructions of the one regeneration after a refused answer.
    static let saferInstruction = "Keep the answer suitable for a general audience: no graphic violence, sexual content or hateful language."

    /// Turns each streamed piece of an answer into what the job's listeners receive (none, for a piece they need not
    /// see); called in order, one piece at a time.
    typealias DeltaShaping = @Sendable (TextDelta) -> [TextDelta]

    /// Every piece as it came: plain text answers.
    static let unchanged: DeltaShaping = { [$0] }

    let routing: any TextRoutes
    let usage: any ProviderUsageRecording
    let safety: ContentSafety?

    /// The provider (a router, in a worker) serving the job's kind for its tenant.
    func router(for job: ClaimedJob) throws -> any TextProvider {
        guard let router = routing.provider(tenant: job.tenant.rawValue, kind: job.kind) else {
            throw JobFailure.permanent(code: "no_provider_route", message: "no provider route serves \(job.kind) for this tenant")
        }
        return router
    }

    /// One generation, whole or (with `deltas`) streamed, with its usage recorded.
    func generate(
        _ request: TextGenerationRequest, router: any TextProvider, job: ClaimedJob, context: JobContext, deltas: DeltaShaping?
    ) async throws -> TextGeneration {
        let answer: TextGeneration
        do {
            if let deltas {
                answer = try await Self.stream(request, through: router, to: context, shaping: deltas)
            } else {
                answer = try await router.generate(request)
            }
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
        try await usage.record(
            ProviderUsageRecord(
                job: job.id, tenant: job.tenant, attempt: job.attempt, provider: answer.provider, model: answer.model,
                inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens))
        return answer
    }

    /// Throws `content_filtered` when `texts` and `images` (the job's input) break the tenant's safety thresholds.
    func checkInput(_ texts: [String], images: [(mediaType: String, data: [UInt8])] = [], _ job: ClaimedJob) async throws {
        try await safety.refuse(texts, images: images, job, what: "the input")
    }

    /// Produces an answer and judges its texts; a refused answer is withdrawn (a `retract` event when `streamed` says
    /// its text reached the listeners) and produced once more with an instruction to keep within the rules; refused
    /// again, the job ends `content_filtered`.
    func judged<Answer>(
        _ request: TextGenerationRequest, job: ClaimedJob, context: JobContext, streamed: (Answer) -> Bool,
        produce: (TextGenerationRequest) async throws -> Answer, texts: (Answer) -> [String]
    ) async throws -> Answer {
        let answer = try await produce(request)
        guard !(try await safety.refusals(of: texts(answer), job)).isEmpty else { return answer }
        if streamed(answer) { context.retract(reason: "content_filtered") }
        var safer = request
        safer.system = (request.system.map { $0 + "\n\n" } ?? "") + Self.saferInstruction
        let second = try await produce(safer)
        let refusedAgain = try await safety.refusals(of: texts(second), job)
        guard refusedAgain.isEmpty else {
            throw JobFailure.contentFiltered(message: "the safety filter refused the answer twice (\(refusedAgain.joined(separator: ", ")))")
        }
        return second
    }

    /// Streams the answer, its shaped deltas sent to the job's events as they come (``JobContext/delta(_:choice:)``
    /// never waits: what piles up while Redis is busy goes joined).
    private static func stream(
        _ request: TextGenerationRequest, through router: any TextProvider, to context: JobContext, shaping: @escaping DeltaShaping
    ) async throws -> TextGeneration {
        try await router.stream(request) { delta in
            for shaped in shaping(delta) { context.delta(shaped.text, choice: shaped.choice) }
        }
    }
}
