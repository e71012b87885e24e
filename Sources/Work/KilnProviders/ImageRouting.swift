public import CurlClient

/// The image routers of a worker, one per route of its ``ProviderConfiguration`` whose providers all make images
/// (OpenAI Images on an `openai_chat` provider, fal.ai on a `fal` one), built once so their circuit breakers remember
/// across jobs.
public struct ImageRouting: Sendable {
    private let configuration: ProviderConfiguration
    private let routers: [Int: ImageRouter]

    public init(configuration: ProviderConfiguration, http: HTTPClient, parking: ProviderParking, concurrency: ProviderConcurrency) {
        let clients: [String: any ImageProvider] = configuration.providers.compactMapValues { provider in
            switch provider.api {
            case .openAIChat: OpenAIImagesClient(http: http, endpoint: provider.endpoint, name: provider.name)
            case .fal: FalClient(http: http, endpoint: provider.endpoint, name: provider.name)
            case .anthropic, .openAICompatible, .gemini: nil
            }
        }
        var routers: [Int: ImageRouter] = [:]
        for (index, route) in configuration.routes.enumerated() {
            let steps = route.models.compactMap { step in
                clients[step.provider].map {
                    ImageRouter.Step(provider: $0, model: step.model, maxConcurrent: configuration.providers[step.provider]?.maxConcurrent)
                }
            }
            // A route of text models is not an image route.
            guard steps.count == route.models.count else { continue }
            routers[index] = ImageRouter(name: "\(route.tenant)/\(route.kind)", steps: steps, parking: parking, concurrency: concurrency)
        }
        self.configuration = configuration
        self.routers = routers
    }

    /// The router serving `kind` for `tenant`, or `nil` when no image route names it.
    public func router(tenant: String, kind: String) -> ImageRouter? {
        self.configuration.routeIndex(tenant: tenant, kind: kind).flatMap { self.routers[$0] }
    }

    /// The route walkers of its routers, in the order of the configuration's routes.
    var walkers: [RouteWalker] { self.routers.sorted { $0.key < $1.key }.map(\.value.walker) }
}
