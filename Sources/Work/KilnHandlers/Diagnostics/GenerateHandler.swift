import KilnCore
import KilnJSON
import KilnProviders
public import KilnQueue
import KilnStore
public import KilnWorker

/// `diag.generate`: one text generation through the tenant's route, its deltas relayed to the job's event stream as
/// they arrive and its token usage recorded; the provider path end to end, for tests and the provider benchmark.
///
/// With ``ContentSafety``, the prompt is judged first (refused: the job ends `content_filtered`) and the answer
/// after: a refused answer is withdrawn (a `retract` event when it was streamed) and generated once more with an
/// instruction to keep within the rules; refused again, the job ends `content_filtered`, its units released.
public struct GenerateHandler: JobHandler {
    private let generator: TextGenerator

    init(generator: TextGenerator) {
        self.generator = generator
    }

    public func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        let input = try job.input(as: GenerateInput.self)
        let router = try generator.router(for: job)
        let streamed = input.stream ?? true
        try await generator.checkInput([input.system ?? "", input.prompt], job)
        let request = TextGenerationRequest(
            model: "", system: input.system, messages: [.user(input.prompt)], maxTokens: input.maxTokens ?? 256, choices: input.choices ?? 1)
        let deltas: TextGenerator.DeltaShaping? = streamed ? TextGenerator.unchanged : nil
        let answer: TextGeneration = try await generator.judged(request, job: job, context: context, streamed: { _ in streamed }) { request in
            try await generator.generate(request, router: router, job: job, context: context, deltas: deltas)
        } texts: {
            $0.choices
        }
        var result: [String: JSONValue] = [
            "text": .string(answer.text),
            "provider": .string(answer.provider),
            "model": .string(answer.model),
            "usage": .object(["input_tokens": .number(Double(answer.usage.inputTokens)), "output_tokens": .number(Double(answer.usage.outputTokens))]
            ),
        ]
        if answer.choices.count > 1 { result["choices"] = .array(answer.choices.map(JSONValue.string)) }
        if let requestID = answer.requestID { result["request_id"] = .string(requestID) }
        return JSONValue.object(result).canonicalJSON()
    }
}
