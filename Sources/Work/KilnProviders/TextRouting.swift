public import CurlClient

/// The routers of a worker, one per route of its ``ProviderConfiguration``, built once so that their circuit
/// breakers remember across jobs.
public struct TextRouting: Sendable {
    private let configuration: ProviderConfiguration
    private let routers: [Int: ProviderRouter]

    /// Builds a client per provider and a router per route, all on one HTTP client.
    public init(configuration: ProviderConfiguration, http: HTTPClient, parking: ProviderParking, concurrency: ProviderConcurrency) {
        let clients: [String: any TextProvider] = configuration.providers.compactMapValues { provider in
            switch provider.api {
            case .anthropic: AnthropicClient(http: http, endpoint: provider.endpoint, name: provider.name)
            case .openAIChat: OpenAIChatClient(http: http, endpoint: provider.endpoint, name: provider.name)
            case .openAICompatible: OpenAIChatClient(http: http, endpoint: provider.endpoint, name: provider.name, lengthField: .maxTokens)
            case .gemini: GeminiClient(http: http, endpoint: provider.endpoint, name: provider.name)
            case .fal: nil
            }
        }
        var routers: [Int: ProviderRouter] = [:]
        for (index, route) in configuration.routes.enumerated() {
            let models = route.models.compactMap { step in
                clients[step.provider].map {
                    RoutedModel(provider: $0, model: step.model, maxConcurrent: configuration.providers[step.provider]?.maxConcurrent)
                }
            }
            routers[index] = ProviderRouter(name: "\(route.tenant)/\(route.kind)", models: models, parking: parking, concurrency: concurrency)
        }
        self.configuration = configuration
        self.routers = routers
    }

    /// The router serving `kind` for `tenant`, or `nil` when no route names it.
    public func router(tenant: String, kind: String) -> ProviderRouter? {
        self.configuration.routeIndex(tenant: tenant, kind: kind).flatMap { self.routers[$0] }
    }

    /// The route walkers of its routers, in the order of the configuration's routes.
    var walkers: [RouteWalker] { self.routers.sorted { $0.key < $1.key }.map(\.value.walker) }
}
