import CurlClient
import KilnJSON
import KilnProviders
import Locking
import Testing

/// Both text clients against the provider simulator: what an answer holds, how it streams, and what each fault becomes.
@Suite struct TextProviderTests {
    enum Flavour: String, CaseIterable, Sendable {
        case anthropic
        case openAI
        case gemini

        func client(_ fixture: SimulatorFixture, _ endpoint: ProviderEndpoint) -> any TextProvider {
            switch self {
            case .anthropic: AnthropicClient(http: fixture.http, endpoint: endpoint)
            case .openAI: OpenAIChatClient(http: fixture.http, endpoint: endpoint)
            case .gemini: GeminiClient(http: fixture.http, endpoint: endpoint)
            }
        }

        /// The clients' default names.
        var providerName: String {
            switch self {
            case .anthropic: "anthropic"
            case .openAI: "openai"
            case .gemini: "gemini"
            }
        }
    }

    static let request = TextGenerationRequest(
        model: "test-model", system: "You write bedtime stories.", messages: [.user("Continue the story of the lighthouse keeper.")],
        maxTokens: 400)

    func words(_ text: String) -> Int {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).count
    }

    @Test(arguments: Flavour.allCases)
    func aWholeAnswerHasTextAndUsage(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let answer = try await flavour.client(fixture, fixture.endpoint()).generate(Self.request)
            #expect(self.words(answer.text) >= 20)
            #expect(answer.finishReason == .stop)
            #expect(answer.usage.outputTokens == self.words(answer.text))
            #expect(answer.usage.inputTokens > 0)
            #expect(answer.requestID != nil)
        }
    }

    @Test(arguments: Flavour.allCases)
    func aStreamedAnswerArrivesInOrderAndEqualsTheWholeOne(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let client = flavour.client(fixture, fixture.endpoint())
            let whole = try await client.generate(Self.request)
            let deltas = Locked<[TextDelta]>([])
            let streamed = try await client.stream(Self.request) { delta in deltas.withLock { $0.append(delta) } }
            let received = deltas.withLock { $0 }
            #expect(received.count > 10)
            #expect(received.map(\.text).joined() == streamed.text)
            #expect(streamed.text == whole.text)
            #expect(streamed.usage == whole.usage)
        }
    }

    @Test(arguments: Flavour.allCases)
    func severalChoicesComeBackInOrder(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            var request = Self.request
            request.choices = 3
            let client = flavour.client(fixture, fixture.endpoint())
            let answer = try await client.generate(request)
            #expect(answer.choices.count == 3)
            #expect(answer.choices.allSatisfy { !$0.isEmpty })
            if flavour != .anthropic {
                // One call with `n` (or `candidateCount`): the simulator seeds each choice apart. Anthropic's choices are separate calls
                // of the same request, which the simulator answers alike; a real model samples them apart.
                #expect(Set(answer.choices).count == 3)
            }
            let deltas = Locked<[Int: String]>([:])
            let streamed = try await client.stream(request) { delta in deltas.withLock { $0[delta.choice, default: ""] += delta.text } }
            #expect(streamed.choices == answer.choices)
            #expect(deltas.withLock { $0 } == [0: answer.choices[0], 1: answer.choices[1], 2: answer.choices[2]])
        }
    }

    @Test func aSchemaAnswerIsJSON() async throws {
        try await SimulatorFixture.with { fixture in
            var request = Self.request
            let schema = try #require(
                JSONValue.parse(
                    #"{"type":"object","properties":{"title":{"type":"string"},"scene":{"type":"integer","minimum":1,"maximum":9}},"required":["title","scene"],"additionalProperties":false}"#
                ))
            request.responseSchema = .init(name: "scene", schema: schema)
            let answer = try await OpenAIChatClient(http: fixture.http, endpoint: fixture.endpoint()).generate(request)
            let json = try #require(JSONValue.parse(answer.text))
            #expect(json["title"]?.stringValue?.isEmpty == false)
            #expect((1...9).contains(try #require(json["scene"]?.intValue)))
        }
    }

    /// A fault on a whole answer and on a streamed one, and the error a user of the client sees.
    struct FaultCase: Sendable, CustomTestStringConvertible {
        let fault: String
        let kind: ProviderError.Kind
        let retryable: Bool
        var streamed = false
        var testDescription: String { "\(self.fault)\(self.streamed ? " (streamed)" : "")" }
    }

    static let faults: [FaultCase] = [
        FaultCase(fault: "rate_limit; retry_after=7", kind: .rateLimited, retryable: true),
        FaultCase(fault: "quota_exhausted", kind: .quotaExhausted, retryable: false),
        FaultCase(fault: "overloaded", kind: .overloaded, retryable: true),
        FaultCase(fault: "server_error", kind: .server, retryable: true),
        FaultCase(fault: "bad_gateway", kind: .server, retryable: true),
        FaultCase(fault: "no_retry", kind: .server, retryable: false),
        FaultCase(fault: "status; code=401", kind: .authentication, retryable: false),
        FaultCase(fault: "status; code=400", kind: .invalidRequest, retryable: false),
        FaultCase(fault: "malformed", kind: .malformedResponse, retryable: true),
        FaultCase(fault: "malformed", kind: .malformedResponse, retryable: true, streamed: true),
        FaultCase(fault: "cut; after_events=3", kind: .transport, retryable: true, streamed: true),
        FaultCase(fault: "no_final_event", kind: .truncatedStream, retryable: true, streamed: true),
        FaultCase(fault: "stream_error; after_events=3", kind: .overloaded, retryable: true, streamed: true),
        FaultCase(fault: "rate_limit; retry_after=7", kind: .rateLimited, retryable: true, streamed: true),
    ]

    @Test(arguments: Flavour.allCases, Self.faults)
    func eachFaultBecomesTheErrorTheRetryTableSays(flavour: Flavour, fault: FaultCase) async throws {
        try await SimulatorFixture.with { fixture in
            let client = flavour.client(fixture, fixture.endpoint(fault: fault.fault))
            let error = await #expect(throws: ProviderError.self) {
                if fault.streamed {
                    _ = try await client.stream(Self.request) { _ in }
                } else {
                    _ = try await client.generate(Self.request)
                }
            }
            // OpenAI has no in-stream overload: its in-band error is a plain server error.
            let kind = flavour == .openAI && fault.kind == .overloaded && fault.streamed ? .server : fault.kind
            #expect(error?.kind == kind)
            #expect(error?.isRetryable == fault.retryable)
            #expect(error?.provider == flavour.providerName)
            if fault.fault.hasPrefix("rate_limit") {
                #expect(error?.retryAfter == .seconds(7))
            }
        }
    }

    @Test(arguments: Flavour.allCases)
    func aProviderThatNeverAnswersTimesOutOnItsFirstByte(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let client = flavour.client(fixture, fixture.endpoint(fault: "hang", firstByteTimeout: .milliseconds(300)))
            let error = await #expect(throws: ProviderError.self) { try await client.generate(Self.request) }
            #expect(error?.kind == .timeout)
            #expect(error?.isRetryable == true)
        }
    }

    @Test(arguments: Flavour.allCases)
    func aStreamThatStallsTimesOutOnItsIdleTimer(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let client = flavour.client(fixture, fixture.endpoint(fault: "stall; after_events=4", idleTimeout: .seconds(2)))
            let error = await #expect(throws: ProviderError.self) { _ = try await client.stream(Self.request) { _ in } }
            #expect(error?.kind == .timeout)
            // The answer had started, so it is the idle timer that ended it, not the first-byte one.
            #expect(error?.message.contains("no data for 2000 ms") == true)
        }
    }

    @Test(arguments: Flavour.allCases)
    func keepAlivesAndCRLFFramingDoNotDisturbTheAnswer(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let plain = try await flavour.client(fixture, fixture.endpoint()).stream(Self.request) { _ in }
            for fault in ["keepalive; count=3; interval_ms=5", "crlf", "trickle; interval_ms=0"] {
                let answer = try await flavour.client(fixture, fixture.endpoint(fault: fault)).stream(Self.request) { _ in }
                #expect(answer.text == plain.text, "\(fault)")
            }
        }
    }

    @Test(arguments: Flavour.allCases)
    func aFaultLimitedToOneRequestLetsTheNextOneThrough(flavour: Flavour) async throws {
        try await SimulatorFixture.with { fixture in
            let client = flavour.client(fixture, fixture.endpoint(fault: "overloaded; times=1; key=\(flavour)"))
            await #expect(throws: ProviderError.self) { try await client.generate(Self.request) }
            let answer = try await client.generate(Self.request)
            #expect(!answer.text.isEmpty)
        }
    }
}
