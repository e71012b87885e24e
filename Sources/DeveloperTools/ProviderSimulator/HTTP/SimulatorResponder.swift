import Hummingbird
import KilnJSON
import NIOCore

/// Routes requests by method and path. The routes are the providers' own paths, and fal's
/// `/{owner}/{app}/…` catches what no other provider claims, which a trie router cannot express.
struct SimulatorResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// Image edits upload whole images; the real APIs accept up to 50 MB per image.
    static let maxBodySize = 64 << 20

    let configuration: SimulatorConfiguration
    let state: SimulatorState

    init(configuration: SimulatorConfiguration) {
        self.configuration = configuration
        self.state = SimulatorState(scenario: configuration.scenario)
    }

    func respond(to request: Request, context: Context) async throws -> Response {
        do {
            return try await self.route(request)
        } catch let rejection as Rejection {
            return rejection.response
        }
    }

    private func route(_ request: Request) async throws -> Response {
        var request = request
        let components = request.uri.path.split(separator: "/").map(String.init)
        let method = request.method
        switch (method, components) {
        case (.get, ["healthz"]):
            return .json(200, .object(["status": "ok"]))
        case (_, let path) where path.first == "_simulator":
            return try await ControlRoutes(state: self.state).respond(to: &request, path: Array(path.dropFirst()))
        case (.post, ["v1", "messages"]):
            return try await AnthropicMessages.respond(to: self.exchange(&request, route: "anthropic.messages", provider: .anthropic))
        case (.post, ["v1", "chat", "completions"]):
            return try await OpenAIChat.respond(to: self.exchange(&request, route: "openai.chat", provider: .openAI))
        case (.post, ["v1", "images", "generations"]):
            return try await OpenAIImages.generate(self.exchange(&request, route: "openai.images.generations", provider: .openAI))
        case (.post, ["v1", "images", "edits"]):
            return try await OpenAIImages.edit(self.exchange(&request, route: "openai.images.edits", provider: .openAI))
        case (.post, ["v1", "moderations"]):
            return try await Moderations.respond(to: self.exchange(&request, route: "openai.moderations", provider: .openAI))
        case (.post, let path) where path.count == 3 && path[0] == "v1beta" && path[1] == "models":
            let streaming = path[2].hasSuffix(":streamGenerateContent")
            let route = streaming ? "gemini.stream" : "gemini.generate"
            return try await GeminiGenerate.respond(to: self.exchange(&request, route: route, provider: .gemini), target: path[2])
        case (_, let path) where path.count >= 2 && path[0] != "v1" && path[0] != "v1beta":
            return try await FalQueue.respond(to: &request, path: path, responder: self)
        default:
            return .json(
                404,
                .object([
                    "error": .object(["message": .string("No route for \(method.rawValue) \(request.uri.path)"), "type": "invalid_request_error"])
                ]))
        }
    }

    /// Counts the request under `route` and collects its body.
    func exchange(_ request: inout Request, route: String, provider: Provider) async throws -> Exchange {
        let sequence = self.state.record(route: route)
        let buffer = try await request.collectBody(upTo: Self.maxBodySize)
        return Exchange(
            request: request, body: Array(buffer.readableBytesView), route: route, provider: provider, sequence: sequence, state: self.state,
            configuration: self.configuration)
    }
}
