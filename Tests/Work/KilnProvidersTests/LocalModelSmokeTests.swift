import CurlClient
import Foundation
import KilnProviders
import Locking
import Testing

/// `OpenAIChatClient` against a real model: llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct on the
/// CPU, which `deploy/local/local-model.sh` sets up and starts (docs/local-model.md).
///
/// Opt-in, and never part of CI: the server takes a long compile and a large package to set up, and
/// the answers of a real model are neither fast nor the same each time. So the suite runs only when
/// `KILN_LOCAL_MODEL_URL` names the server (`KILN_LOCAL_MODEL_URL=http://127.0.0.1:8091`, as the script prints);
/// without it every test is skipped, not failed. CI never sets it. Only what any real answer must satisfy is checked.
///
/// The client sends the length limit as `max_tokens` (the `openai_compatible` API of the provider file), since
/// llama-cpp-python's server (0.3.36) ignores `max_completion_tokens`. It also sends no usage in a stream (no
/// `stream_options.include_usage`), so a streamed answer's usage is zero: recorded as a known issue, marked
/// intermittent so a server without the gap passes too.
@Suite(
    .enabled(if: LocalModelServer.baseURL != nil, "KILN_LOCAL_MODEL_URL is not set: run deploy/local/local-model.sh to opt in"),
    .serialized)
struct LocalModelSmokeTests {
    static let request = TextGenerationRequest(
        model: "smollm2-135m-instruct", system: "You are a helpful assistant. Answer briefly.",
        messages: [.user("Name three colours of the rainbow.")], maxTokens: 100)

    func withClient(_ body: (OpenAIChatClient) async throws -> Void) async throws {
        let http = try HTTPClient()
        defer { http.shutdown() }
        let endpoint = ProviderEndpoint(
            baseURL: try #require(LocalModelServer.baseURL), apiKey: "local", firstByteTimeout: .seconds(60), idleTimeout: .seconds(30),
            totalTimeout: .seconds(180))
        try await body(OpenAIChatClient(http: http, endpoint: endpoint, name: "local", lengthField: .maxTokens))
    }

    @Test func aWholeAnswerHasTextAndUsage() async throws {
        try await self.withClient { client in
            let answer = try await client.generate(Self.request)
            #expect(!answer.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(answer.finishReason == .stop || answer.finishReason == .length)
            #expect(answer.usage.inputTokens > 0)
            #expect(answer.usage.outputTokens > 0)
            #expect(answer.provider == "local")
            #expect(answer.usage.outputTokens <= Self.request.maxTokens)
        }
    }

    @Test func aStreamedAnswerIsItsDeltas() async throws {
        try await self.withClient { client in
            let deltas = Locked<[TextDelta]>([])
            let streamed = try await client.stream(Self.request) { delta in deltas.withLock { $0.append(delta) } }
            let received = deltas.withLock { $0 }
            #expect(!received.isEmpty)
            #expect(received.allSatisfy { !$0.text.isEmpty && $0.choice == 0 })
            #expect(received.map(\.text).joined() == streamed.text)
            #expect(!streamed.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(streamed.finishReason == .stop || streamed.finishReason == .length)
            withKnownIssue("llama-cpp-python sends no usage in a stream", isIntermittent: true) {
                #expect(streamed.usage.inputTokens > 0)
                #expect(streamed.usage.outputTokens > 0)
            }
        }
    }
}

extension LocalModelSmokeTests {
    /// The provider file the script writes beside the server is one the worker accepts, with diag.generate on it.
    @Test(.enabled(if: LocalModelServer.providersFile != nil, "no providers.local.json: deploy/local/local-model.sh writes it"))
    func theScriptsProviderFileRoutesToTheLocalModel() throws {
        let file = try #require(LocalModelServer.providersFile)
        let configuration = try ProviderConfiguration.load(
            Data(contentsOf: file), environment: [:], directory: file.deletingLastPathComponent())
        let route = configuration.routes[try #require(configuration.routeIndex(tenant: "demo", kind: "diag.generate"))]
        let primary = try #require(route.models.first)
        #expect(configuration.providers[primary.provider]?.endpoint.baseURL == LocalModelServer.baseURL)
        #expect(configuration.providers[primary.provider]?.api == .openAIChat)
        #expect(configuration.moderation != nil)
    }
}

/// Where the opt-in local model server is: `KILN_LOCAL_MODEL_URL`, or `nil` when it is not set (the usual case).
enum LocalModelServer {
    static var baseURL: String? {
        guard let url = ProcessInfo.processInfo.environment["KILN_LOCAL_MODEL_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// `$KILN_STATE_DIR/providers.local.json` (`.kiln/` in the checkout by default), when the script has written it.
    static var providersFile: URL? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let state = ProcessInfo.processInfo.environment["KILN_STATE_DIR"].map { URL(fileURLWithPath: $0) } ?? root.appendingPathComponent(".kiln")
        let file = state.appendingPathComponent("providers.local.json")
        return FileManager.default.fileExists(atPath: file.path) ? file : nil
    }
}
