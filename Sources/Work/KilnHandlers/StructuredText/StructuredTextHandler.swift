import KilnCore
import KilnJSON
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker

/// Runs a ``StructuredTextKind``: the input judged by the tenant's safety profile, the kind's prompt rendered from its
/// versioned template, the answer asked for with the kind's JSON Schema and streamed (its prose fields only) to the
/// job's events, then checked against the schema and the kind's own rules.
///
/// An answer that breaks them gets one repair: the model is sent its answer and the list of what is wrong, and asked
/// for a corrected one (streamed text so far is withdrawn with a `retract` event). A second bad answer fails the job
/// for good with `invalid_model_output`, its units released. A valid answer the safety filter refuses is produced
/// once more with a safer instruction, as ``GenerateHandler`` does.
struct StructuredTextHandler<Kind: StructuredTextKind>: JobHandler {
    private let kind: Kind
    private let generator: TextGenerator
    private let uploads: UploadStore?

    /// - Parameter uploads: where the images a kind attaches come from; kinds that attach none need none.
    init(_ kind: Kind, generator: TextGenerator, uploads: UploadStore? = nil) {
        self.kind = kind
        self.generator = generator
        self.uploads = uploads
    }

    /// A valid answer and the calls that made it.
    private struct Answer {
        var result: Kind.Output
        var document: JSONValue
        var calls: [TextGeneration]
        /// Whether its text reached the job's listeners, so withdrawing it needs a `retract` event.
        var streamed: Bool
    }

    func run(_ job: ClaimedJob, context: JobContext) async throws -> String {
        guard let raw = JSONValue.parse(job.input), let input = try? raw.decode(as: Kind.Input.self) else {
            throw JobFailure.permanent(code: "invalid_input", message: "the input is not a \(job.kind) input")
        }
        let router = try generator.router(for: job)
        let images = try await attachedImages(input, job)
        try await generator.checkInput(StructuredAnswer.texts(in: raw), images: images, job)
        let prompt = try PromptLibrary.render(kind.promptID, with: kind.promptValues(for: input, raw: raw))
        let schema = kind.schema(for: input)
        let request = TextGenerationRequest(
            model: "", system: prompt.system.isEmpty ? nil : prompt.system,
            messages: [ChatMessage(role: .user, parts: [.text(prompt.user)] + images.map { .image(mediaType: $0.mediaType, data: $0.data) })],
            maxTokens: kind.maxTokens,
            responseSchema: .init(name: kind.schemaName, schema: Schema.portable(schema)))
        let answer = try await generator.judged(request, job: job, context: context, streamed: \.streamed) { request in
            try await self.validAnswer(to: request, schema: schema, input: input, router: router, job: job, context: context)
        } texts: {
            StructuredAnswer.texts(in: $0.document)
        }

        // The kind's result as its type (the one the app's client reads) writes it, then what every generated result carries.
        guard case .object(var result)? = try? JSONValue(encoding: answer.result), let last = answer.calls.last else {
            throw JobFailure.permanent(code: "invalid_model_output", message: "the kind's result is not an object")
        }
        let usage = answer.calls.map(\.usage).reduce(TokenUsage(), +)
        result["prompt_version"] = .string(kind.promptID)
        result["provider"] = .string(last.provider)
        result["model"] = .string(last.model)
        result["repaired"] = .bool(answer.calls.count > 1)
        result["usage"] = .object(["input_tokens": .number(Double(usage.inputTokens)), "output_tokens": .number(Double(usage.outputTokens))])
        return JSONValue.object(result).canonicalJSON()
    }

    /// Asks for the answer; when it breaks the schema or the kind's rules, asks once for a repair.
    private func validAnswer(
        to request: TextGenerationRequest, schema: JSONValue, input: Kind.Input, router: any TextProvider, job: ClaimedJob, context: JobContext
    ) async throws -> Answer {
        let fields = StreamedFields(select: kind.streamedField(at:))
        let first = try await generator.generate(request, router: router, job: job, context: context, deltas: fields.shape)
        let violations: [OutputViolation]
        switch check(first.text, schema: schema, input: input) {
        case .success(let (document, result)): return Answer(result: result, document: document, calls: [first], streamed: fields.relayedAny)
        case .failure(let rejection): violations = rejection.violations
        }
        if fields.relayedAny { context.retract(reason: "invalid_output") }

        var repair = request
        let message = try PromptLibrary.render(
            Self.repairPromptID, with: .object(["violations": .array(violations.prefix(20).map { .string($0.description) })]))
        repair.messages += [.assistant(first.text), .user(message.user)]
        let repairedFields = StreamedFields(select: kind.streamedField(at:))
        let second = try await generator.generate(repair, router: router, job: job, context: context, deltas: repairedFields.shape)
        switch check(second.text, schema: schema, input: input) {
        case .success(let (document, result)):
            return Answer(result: result, document: document, calls: [first, second], streamed: repairedFields.relayedAny)
        case .failure(let rejection):
            if repairedFields.relayedAny { context.retract(reason: "invalid_output") }
            let listed = rejection.violations.prefix(3).map(\.description).joined(separator: "; ")
            throw JobFailure.permanent(
                code: "invalid_model_output", message: "the model's answer was invalid twice, the second time: \(listed)")
        }
    }

    /// The images the kind attaches to its prompt, read from the identity's uploads.
    private func attachedImages(_ input: Kind.Input, _ job: ClaimedJob) async throws -> [(mediaType: String, data: [UInt8])] {
        let ids = kind.attachedUploads(in: input)
        guard !ids.isEmpty else { return [] }
        guard let uploads else { throw JobFailure.permanent(code: "uploads_unavailable", message: "this worker cannot read uploads") }
        return try await uploads.images(ids, of: job)
    }

    /// The instructions that ask for a corrected answer, listing what was wrong.
    static var repairPromptID: String { "repair.v1" }

    /// The answer's document and the app's result, or every violation found: of the whole schema (the provider got
    /// its portable part), then of the kind's own rules.
    private func check(_ text: String, schema: JSONValue, input: Kind.Input) -> Result<(JSONValue, Kind.Output), StructuredAnswerRejected> {
        let document: JSONValue
        switch StructuredAnswer.parse(text) {
        case .success(let parsed): document = parsed
        case .failure(let rejection): return .failure(rejection)
        }
        let violations = JSONSchemaValidator(schema: schema).violations(of: document)
        guard violations.isEmpty else { return .failure(StructuredAnswerRejected(violations)) }
        return kind.result(from: document, input: input).map { (document, $0) }
    }
}
