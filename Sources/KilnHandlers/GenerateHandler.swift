import KilnCore
public import KilnProviders
public import KilnQueue
public import KilnStore
public import KilnWorker

/// `diag.generate`: one text generation through the tenant's route, its deltas relayed to the job's event stream as
/// they arrive and its token usage recorded; the provider path end to end, for tests and the provider benchmark.
///
/// With ``ContentSafety``, the prompt is judged first (refused: the job ends `content_filtered`) and the answer
/// after: a refused answer is withdrawn (a `retract` event when it was streamed) and generated once more with an
/// instruction to keep within the rules; refused again, the job ends `content_filtered`, its units released.
public struct GenerateHandler: JobHandler {
    /// Appended to the instructions of the one regeneration after a refused answer.
    static let saferInstruction = "Keep the answer suitable for a general audience: no graphic violence, sexual content or hateful language."

    private let routing: TextRouting
    private let usage: ProviderUsageStore
    private let safety: ContentSafety?

    public init(routing: TextRouting, usage: ProviderUsageStore, safety: ContentSafety?) {
        self.routing = routing
        self.usage = usage
        self.safety = safety
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        guard let input = try? JSONValue.parse(job.input)?.decode(as: GenerateInput.self) else {
            throw JobFailure.permanent(code: "invalid_input", message: "the input is not a diag.generate input")
        }
        guard let router = self.routing.router(tenant: job.tenant.rawValue, kind: job.kind) else {
            throw JobFailure.permanent(code: "no_provider_route", message: "no provider route serves \(job.kind) for this tenant")
        }
        let streamed = input.stream ?? true
        let refusedInput = try await self.refusals(of: [input.system ?? "", input.prompt], job)
        guard refusedInput.isEmpty else {
            throw JobFailure.contentFiltered(message: "the safety filter refused the input (\(refusedInput.joined(separator: ", ")))")
        }
        var request = TextGenerationRequest(
            model: "", system: input.system, messages: [.user(input.prompt)], maxTokens: input.maxTokens ?? 256, choices: input.choices ?? 1)
        var answer = try await self.generate(request, streamed: streamed, router: router, job: job, context: context)
        if !(try await self.refusals(of: answer.choices, job)).isEmpty {
            if streamed { try await context.retract(reason: "content_filtered") }
            request.system = (request.system.map { $0 + "\n\n" } ?? "") + Self.saferInstruction
            answer = try await self.generate(request, streamed: streamed, router: router, job: job, context: context)
            let refusedAgain = try await self.refusals(of: answer.choices, job)
            guard refusedAgain.isEmpty else {
                throw JobFailure.contentFiltered(message: "the safety filter refused the answer twice (\(refusedAgain.joined(separator: ", ")))")
            }
        }
        var result: [String: JSONValue] = [
            "text": .string(answer.text),
            "provider": .string(answer.provider),
            "model": .string(answer.model),
            "usage": .object(["input_tokens": .number(Double(answer.usage.inputTokens)), "output_tokens": .number(Double(answer.usage.outputTokens))]),
        ]
        if answer.choices.count > 1 { result["choices"] = .array(answer.choices.map(JSONValue.string)) }
        if let requestID = answer.requestID { result["request_id"] = .string(requestID) }
        return JSONValue.object(result).canonicalJSON()
    }

    /// One generation, whole or streamed, with its usage recorded.
    private func generate(
        _ request: TextGenerationRequest, streamed: Bool, router: ProviderRouter, job: ClaimedJob, context: JobContext
    ) async throws -> TextGeneration {
        let answer: TextGeneration
        do {
            answer = streamed ? try await Self.stream(request, through: router, to: context) : try await router.generate(request)
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
        try await self.usage.record(
            ProviderUsageRecord(
                job: job.id, tenant: job.tenant, attempt: job.attempt, provider: answer.provider, model: answer.model,
                inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens))
        return answer
    }

    /// The categories in which `texts` break the tenant's safety thresholds; none without ``ContentSafety``.
    private func refusals(of texts: [String], _ job: ClaimedJob) async throws -> [String] {
        guard let safety else { return [] }
        do {
            return try await safety.violations(of: texts, tenant: job.tenant)
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
    }

    /// Streams the answer, relaying its deltas to the job's events as fast as Redis takes them.
    private static func stream(_ request: TextGenerationRequest, through router: ProviderRouter, to context: JobContext) async throws -> TextGeneration {
        let relay = DeltaRelay()
        return try await withThrowingTaskGroup(of: TextGeneration?.self) { group in
            group.addTask {
                try await relay.run { choice, text in try await context.delta(text, choice: choice) }
                return nil
            }
            group.addTask {
                defer { relay.finish() }
                return try await router.stream(request) { relay.append($0) }
            }
            var answer: TextGeneration?
            // The first failure, of either side, cancels the other and ends the job's attempt with it.
            for try await result in group where result != nil { answer = result }
            guard let answer else { throw JobFailure.retryable(code: "stream_incomplete", message: "the stream ended without an answer") }
            return answer
        }
    }
}
