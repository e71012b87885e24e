import KilnCore
import KilnJSON
import KilnProviders
import KilnQueue
import KilnStore
import TalevoniaInputs
import Testing

/// The text kinds over the worker's fakes and a scripted provider: the job's result carries the provider's text, the
/// text it streamed reaches the job's listeners in order, and a provider's failure becomes the failure users see.
@Suite struct TextKindTests {
    @Test func generateReturnsTheProvidersTextAndStreamsItsDeltasInOrder() async throws {
        let pieces = ["Once ", "upon ", "a time, ", "a kiln ", "cooled", "."]
        let run = try HandlerRun("diag.generate", input: #"{"prompt":"Tell a story."}"#)
        let result = try await run.run(provider: ScriptedTextProvider(streaming: pieces))

        #expect(result["text"]?.stringValue == pieces.joined())
        #expect(result["provider"]?.stringValue == "scripted")
        #expect(result["model"]?.stringValue == "scripted-1")
        #expect(try run.streamedText() == [0: pieces.joined()])
        #expect(run.events("retract").isEmpty)
        let usage = run.usage.records
        #expect(usage.map(\.job) == [run.job.id])
        #expect(usage.map(\.outputTokens) == [ScriptedTextProvider.usage.outputTokens])
    }

    @Test func generateUnstreamedEmitsNoDeltas() async throws {
        let run = try HandlerRun("diag.generate", input: #"{"prompt":"Tell a story.","stream":false}"#)
        let result = try await run.run(provider: ScriptedTextProvider(streaming: ["Whole", " answer"]))
        #expect(result["text"]?.stringValue == "Whole answer")
        #expect(run.events("delta").isEmpty)
    }

    @Test func textContinueReturnsThreeCandidatesAndStreamsEachAsItsChoice() async throws {
        let texts = ["fox", "owl", "crow"].map(Self.prose)
        let answer = JSONValue.object([
            "continuations": .array(
                texts.enumerated().map { index, text in
                    .object(["text": .string(text), "summary": .string("The \(index) way on."), "tags": .array([.string("mystery")])])
                })
        ]).canonicalJSON()
        // The answer's JSON arrives in small pieces, cut across keys and words.
        let pieces = stride(from: 0, to: answer.count, by: 9).map { start in
            String(answer.dropFirst(start).prefix(9))
        }
        let provider = ScriptedTextProvider(streaming: pieces)
        let run = try HandlerRun("text.continue", input: #"{"title":"The Harbour","last_node_text":"The tide turned at dusk."}"#)
        let result = try await run.run(provider: provider)

        let continuations = try #require(result["continuations"]?.arrayValue)
        #expect(continuations.map { $0["text"]?.stringValue } == texts)
        #expect(continuations.map { $0["word_count"]?.intValue } == [112, 112, 112])
        #expect(result["prompt_version"]?.stringValue == "text.continue.v1")
        #expect(result["repaired"] == .bool(false))
        #expect(try run.streamedText() == [0: texts[0], 1: texts[1], 2: texts[2]], "each candidate's prose, and nothing else")
        #expect(provider.requests.count == 1)
        #expect(provider.requests.first?.responseSchema?.name == "story_continuations")
    }

    /// The result is written by encoding ``StoryContinuations``, the type the apps' client decodes: it reads back as
    /// that type, and apart from what every generated result carries, the type holds every field the worker wrote.
    @Test func textContinuesResultIsTheSharedResultType() async throws {
        let texts = ["heron", "seal", "gull"].map(Self.prose)
        let answer = JSONValue.object([
            "continuations": .array(
                texts.enumerated().map { index, text in
                    .object(["text": .string(text), "summary": .string("Way \(index)."), "tags": .array([.string("Sea")])])
                })
        ]).canonicalJSON()
        let run = try HandlerRun("text.continue", input: #"{"title":"The Harbour","last_node_text":"The tide turned at dusk."}"#)
        let result = try await run.run(provider: ScriptedTextProvider(streaming: [answer]))

        let typed = try result.decode(as: StoryContinuations.self)
        #expect(
            typed
                == StoryContinuations(
                    continuations: texts.enumerated().map { index, text in
                        StoryPassage(text: text, summary: "Way \(index).", tags: ["sea"], wordCount: 112)
                    }))
        guard case .object(var written) = result else { throw JSONShapeError() }
        for generated in ["prompt_version", "provider", "model", "repaired", "usage"] {
            #expect(written.removeValue(forKey: generated) != nil, "every generated result carries \(generated)")
        }
        #expect(JSONValue.object(written) == (try JSONValue(encoding: typed)))
    }

    private struct JSONShapeError: Error {}

    /// A failing provider's error, what the job fails with: its code, and whether the queue retries it.
    struct ProviderFailureCase: Sendable, CustomTestStringConvertible {
        var kind: ProviderError.Kind
        var isRetryable: Bool
        var retryAfter: Duration?
        var code: String
        var retried: Bool
        var throttledFor: Duration?

        var testDescription: String { "\(kind) → \(code)" }
    }

    @Test(arguments: [
        ProviderFailureCase(kind: .invalidRequest, isRetryable: false, code: "provider_invalidRequest", retried: false),
        ProviderFailureCase(kind: .quotaExhausted, isRetryable: false, code: "provider_quotaExhausted", retried: false),
        ProviderFailureCase(kind: .server, isRetryable: true, code: "provider_server", retried: true),
        ProviderFailureCase(
            kind: .rateLimited, isRetryable: true, retryAfter: .seconds(7), code: "provider_rateLimited", retried: false, throttledFor: .seconds(7)),
        ProviderFailureCase(kind: .contentRefused, isRetryable: false, code: "content_filtered", retried: false),
    ])
    func aProviderFailureBecomesTheJobsFailure(_ failure: ProviderFailureCase) async throws {
        let error = ProviderError(
            kind: failure.kind, provider: "scripted", message: "scripted failure", retryAfter: failure.retryAfter, isRetryable: failure.isRetryable)
        let run = try HandlerRun("diag.generate", input: #"{"prompt":"Tell a story."}"#)
        let thrown = await #expect(throws: JobFailure.self) { try await run.run(provider: ScriptedTextProvider(failing: error)) }
        #expect(thrown?.code == failure.code)
        #expect(thrown?.isRetryable == failure.retried)
        #expect(thrown?.throttleDelay == failure.throttledFor)
        #expect(run.usage.records.isEmpty, "no answer, no usage")
    }

    /// 112 words of story prose about `creature`.
    static func prose(_ creature: String) -> String {
        Array(repeating: "The \(creature) watched the lantern sway over the quiet harbour as the tide turned.", count: 8)
            .joined(separator: " ")
    }
}
