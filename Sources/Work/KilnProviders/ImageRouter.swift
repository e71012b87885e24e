/// A tenant's image models in order of preference, used as one through a ``RouteWalker``: parking, fleet-wide
/// concurrency caps, circuit breakers, retries and fallbacks as for text.
public final class ImageRouter: ImageProvider {
    /// One step: a provider and the model to ask there.
    public struct Step: Sendable {
        public let provider: any ImageProvider
        public let model: String
        /// The most calls to this provider and model in flight at once across the fleet; `nil` for no cap.
        public let maxConcurrent: Int?

        public init(provider: any ImageProvider, model: String, maxConcurrent: Int? = nil) {
            self.provider = provider
            self.model = model
            self.maxConcurrent = maxConcurrent
        }
    }

    public let name: String
    private let steps: [Step]
    let walker: RouteWalker

    public init(
        name: String, steps: [Step], policy: ProviderCallPolicy = .init(), parking: ProviderParking, concurrency: ProviderConcurrency? = nil,
        breaker: CircuitBreaker.Configuration = .init(), clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.name = name
        self.steps = steps
        self.walker = RouteWalker(
            name: name, steps: steps.map { .init(provider: $0.provider.name, model: $0.model, maxConcurrent: $0.maxConcurrent) },
            policy: policy, parking: parking, concurrency: concurrency, breaker: breaker, clock: clock)
    }

    /// Makes the images with the first provider that answers; `request.model` is replaced by each step's model.
    public func generate(_ request: ImageGenerationRequest) async throws -> GeneratedImages {
        try await self.walker.walk(
            { index, _ in
                var asked = request
                asked.model = self.steps[index].model
                return try await self.steps[index].provider.generate(asked)
            }, rateLimitWait: { _ in nil })
    }
}
