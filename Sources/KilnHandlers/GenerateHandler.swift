import KilnCore
public import KilnProviders
public import KilnQueue
public import KilnStore
public import KilnWorker

/// `diag.generate`: one text generation through the tenant's route, its deltas relayed to the job's event stream as
/// they arrive and its token usage recorded; the provider path end to end, for tests and the provider benchmark.
public struct GenerateHandler: JobHandler {
    private let routing: TextRouting
    private let usage: ProviderUsageStore

    public init(routing: TextRouting, usage: ProviderUsageStore) {
        self.routing = routing
        self.usage = usage
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        guard let input = try? JSONValue.parse(job.input)?.decode(as: GenerateInput.self) else {
            throw JobFailure.permanent(code: "invalid_input", message: "the input is not a diag.generate input")
        }
        guard let router = self.routing.router(tenant: job.tenant.rawValue, kind: job.kind) else {
            throw JobFailure.permanent(code: "no_provider_route", message: "no provider route serves \(job.kind) for this tenant")
        }
        let request = TextGenerationRequest(
            model: "", system: input.system, messages: [.user(input.prompt)], maxTokens: input.maxTokens ?? 256, choices: input.choices ?? 1)
        let answer: TextGeneration
        do {
            if input.stream ?? true {
                answer = try await Self.stream(request, through: router, to: context)
            } else {
                answer = try await router.generate(request)
            }
        } catch let error as ProviderError {
            throw JobFailure(error)
        }
        try await self.usage.record(
            ProviderUsageRecord(
                job: job.id, tenant: job.tenant, attempt: job.attempt, provider: answer.provider, model: answer.model,
                inputTokens: answer.usage.inputTokens, outputTokens: answer.usage.outputTokens))
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
