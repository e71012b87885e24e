import Foundation

/// A tenant's text models in order of preference, used as one, through a ``RouteWalker``: the first provider that is
/// neither parked nor behind an open circuit answers, with retries and fallbacks as ``ProviderCallPolicy`` says.
public final class ProviderRouter: TextProvider {
    public let name: String
    private let models: [RoutedModel]
    let walker: RouteWalker

    /// - Parameters:
    ///   - models: the primary first, then the fallbacks; each request is sent with the step's model.
    ///   - breaker: the circuit configuration each provider gets, kept per process.
    ///   - concurrency: where the fleet-wide caps of ``RoutedModel/maxConcurrent`` are held; `nil` caps nothing.
    ///   - clock: the time circuits open and close by; tests move it on instead of waiting.
    public init(
        name: String, models: [RoutedModel], policy: ProviderCallPolicy = .init(), parking: ProviderParking,
        concurrency: ProviderConcurrency? = nil, breaker: CircuitBreaker.Configuration = .init(),
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.name = name
        self.models = models
        self.walker = RouteWalker(
            name: name, steps: models.map { .init(provider: $0.provider.name, model: $0.model, maxConcurrent: $0.maxConcurrent) },
            policy: policy, parking: parking, concurrency: concurrency, breaker: breaker, clock: clock)
    }

    /// Where each provider's circuit stands, by name.
    public var circuits: [String: CircuitBreaker.State] { self.walker.circuits }

    /// How long a request waits for a slot when every one is taken, before the job asks again.
    public static var busyWait: Duration { RouteWalker.busyWait }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        try await self.walker.walk(
            { index, _ in
                try await self.models[index].provider.generate(request.asking(self.models[index].model))
            }, rateLimitWait: \.rateLimitWait)
    }

    /// Streams from the first provider that answers. Once a delta has reached `onDelta`, a failure is not retried
    /// here, since starting again would repeat text the listeners already have: the error goes to the job's own retry.
    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void
    ) async throws -> TextGeneration {
        try await self.walker.walk(
            { index, delivered in
                try await self.models[index].provider.stream(request.asking(self.models[index].model)) { delta in
                    delivered.markDelivered()
                    try onDelta(delta)
                }
            }, rateLimitWait: \.rateLimitWait)
    }
}

extension TextGenerationRequest {
    fileprivate func asking(_ model: String) -> TextGenerationRequest {
        var request = self
        request.model = model
        return request
    }
}
