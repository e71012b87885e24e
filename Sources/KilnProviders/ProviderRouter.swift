import Foundation
import Synchronization

/// A tenant's text providers in order of preference, used as one: each request goes to the first provider that is
/// neither parked nor behind an open circuit, is retried there as ``ProviderCallPolicy`` says, and moves on to the
/// next when that provider gives up.
///
/// When none is left, the last provider's error is thrown; if every provider was parked it is a throttling error
/// whose `retryAfter` is the shortest park, so the job goes back to the queue for that long without spending an
/// attempt.
public final class ProviderRouter: TextProvider {
    public let name: String
    private let providers: [any TextProvider]
    private let policy: ProviderCallPolicy
    private let parking: ProviderParking
    private let breakers: Mutex<[String: CircuitBreaker]>

    /// - Parameters:
    ///   - providers: the primary first, then the fallbacks.
    ///   - breaker: the circuit configuration each provider gets, kept per process.
    public init(
        name: String, providers: [any TextProvider], policy: ProviderCallPolicy = .init(), parking: ProviderParking,
        breaker: CircuitBreaker.Configuration = .init()
    ) {
        self.name = name
        self.providers = providers
        self.policy = policy
        self.parking = parking
        self.breakers = Mutex(Dictionary(providers.map { ($0.name, CircuitBreaker(configuration: breaker)) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Where each provider's circuit stands, by name.
    public var circuits: [String: CircuitBreaker.State] {
        self.breakers.withLock { $0.mapValues(\.state) }
    }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        try await self.route { provider, _ in try await provider.generate(request) }
    }

    /// Streams from the first provider that answers. Once a delta has reached `onDelta`, a failure is not retried
    /// here, since starting again would repeat text the listeners already have: the error goes to the job's own retry.
    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) async throws -> Void
    ) async throws -> TextGeneration {
        try await self.route { provider, delivered in
            try await provider.stream(request) { delta in
                delivered.value.store(true, ordering: .relaxed)
                try await onDelta(delta)
            }
        }
    }

    /// Whether a call has handed text to its listeners.
    private final class DeliveryMark: Sendable {
        let value = Atomic(false)
    }

    private func route(_ call: (any TextProvider, DeliveryMark) async throws -> TextGeneration) async throws -> TextGeneration {
        var lastError: ProviderError?
        var shortestPark: Duration?
        for provider in self.providers {
            if let parked = try await self.parking.remaining(provider.name) {
                shortestPark = min(shortestPark ?? parked, parked)
                continue
            }
            guard self.withBreaker(of: provider, { $0.allowsCall(at: .now) }) else { continue }
            var attempt = 1
            while true {
                let delivered = DeliveryMark()
                do {
                    let answer = try await call(provider, delivered)
                    self.withBreaker(of: provider) { $0.record(failure: false, at: .now) }
                    return answer
                } catch let error as ProviderError {
                    lastError = error
                    // A request the provider refused says nothing about the provider's health.
                    let providerFailed = error.kind != .invalidRequest && error.kind != .contentRefused
                    self.withBreaker(of: provider) { $0.record(failure: providerFailed, at: .now) }
                    if delivered.value.load(ordering: .relaxed) { throw error }
                    switch self.policy.decide(error, attempt: attempt, unitRandom: Double.random(in: 0..<1)) {
                    case .retry(let delay):
                        try await Task.sleep(for: delay)
                        attempt += 1
                        guard self.withBreaker(of: provider, { $0.allowsCall(at: .now) }) else { break }
                        continue
                    case .park(let duration):
                        try await self.parking.park(provider.name, for: duration)
                        shortestPark = min(shortestPark ?? duration, duration)
                    case .disable:
                        self.withBreaker(of: provider) { $0.open(at: .now) }
                    case .nextProvider:
                        break
                    case .fail:
                        throw error
                    }
                    break
                }
            }
        }
        if let lastError, !lastError.isThrottling || shortestPark == nil { throw lastError }
        guard let shortestPark else {
            throw ProviderError(kind: .overloaded, provider: self.name, message: "every provider's circuit is open", isRetryable: true)
        }
        // Every provider is parked: the caller should come back when the first park ends.
        throw ProviderError(
            kind: .rateLimited, provider: self.name, message: "every provider is parked", retryAfter: shortestPark, isRetryable: true)
    }

    private func withBreaker<T>(of provider: any TextProvider, _ body: (inout CircuitBreaker) -> T) -> T {
        self.breakers.withLock { breakers in
            var breaker = breakers[provider.name] ?? CircuitBreaker()
            defer { breakers[provider.name] = breaker }
            return body(&breaker)
        }
    }
}
