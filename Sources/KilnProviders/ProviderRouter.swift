import Foundation
import Synchronization

/// A tenant's text models in order of preference, used as one: each request goes to the first provider that is
/// neither parked nor behind an open circuit, is retried there as ``ProviderCallPolicy`` says, and moves on to the
/// next when that provider gives up.
///
/// When none is left, the last provider's error is thrown; if every provider was parked it is a throttling error
/// whose `retryAfter` is the shortest park, so the job goes back to the queue for that long without spending an
/// attempt.
public final class ProviderRouter: TextProvider {
    public let name: String
    private let models: [RoutedModel]
    private let policy: ProviderCallPolicy
    private let parking: ProviderParking
    private let concurrency: ProviderConcurrency?
    private let breakers: Mutex<[String: CircuitBreaker]>
    private let clock: @Sendable () -> ContinuousClock.Instant

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
        self.clock = clock
        self.concurrency = concurrency
        self.name = name
        self.models = models
        self.policy = policy
        self.parking = parking
        self.breakers = Mutex(Dictionary(models.map { ($0.provider.name, CircuitBreaker(configuration: breaker)) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Where each provider's circuit stands, by name.
    public var circuits: [String: CircuitBreaker.State] {
        self.breakers.withLock { $0.mapValues(\.state) }
    }

    public func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
        try await self.route { step, _ in try await step.provider.generate(request.asking(step.model)) }
    }

    /// Streams from the first provider that answers. Once a delta has reached `onDelta`, a failure is not retried
    /// here, since starting again would repeat text the listeners already have: the error goes to the job's own retry.
    public func stream(
        _ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) async throws -> Void
    ) async throws -> TextGeneration {
        try await self.route { step, delivered in
            try await step.provider.stream(request.asking(step.model)) { delta in
                delivered.value.store(true, ordering: .relaxed)
                try await onDelta(delta)
            }
        }
    }

    /// How long a request waits for a slot when every one is taken, before the job asks again.
    public static let busyWait = Duration.seconds(1)

    /// Whether a call has handed text to its listeners.
    private final class DeliveryMark: Sendable {
        let value = Atomic(false)
    }

    private func route(_ call: (RoutedModel, DeliveryMark) async throws -> TextGeneration) async throws -> TextGeneration {
        var lastError: ProviderError?
        var shortestPark: Duration?
        for step in self.models {
            let provider = step.provider
            if let parked = try await self.parking.remaining(provider.name) {
                shortestPark = min(shortestPark ?? parked, parked)
                continue
            }
            let slot: ProviderConcurrency.Slot?
            if let cap = step.maxConcurrent, let concurrency = self.concurrency {
                slot = try await concurrency.acquire(provider: provider.name, model: step.model, cap: cap)
                guard slot != nil else {
                    // Every slot is taken fleet-wide: as good as parked for a moment.
                    shortestPark = min(shortestPark ?? Self.busyWait, Self.busyWait)
                    continue
                }
            } else {
                slot = nil
            }
            // The breaker is asked last: a half-open one makes this call its probe, which must then be made.
            guard self.withBreaker(of: provider, { $0.allowsCall(at: self.clock()) }) else {
                if let slot { try? await self.concurrency?.release(slot) }
                continue
            }
            do {
                let outcome = try await self.attempt(step, call: call, lastError: &lastError, shortestPark: &shortestPark)
                if let slot { try? await self.concurrency?.release(slot) }
                if let answer = outcome { return answer }
            } catch {
                if let slot { try? await self.concurrency?.release(slot) }
                throw error
            }
        }
        if let lastError, !lastError.isThrottling || shortestPark == nil { throw lastError }
        guard let shortestPark else {
            throw ProviderError(kind: .overloaded, provider: self.name, message: "every provider's circuit is open", isRetryable: true)
        }
        // Every provider is parked or busy: the caller should come back when the first park ends.
        throw ProviderError(
            kind: .rateLimited, provider: self.name, message: "every provider is parked or at its concurrency cap", retryAfter: shortestPark,
            isRetryable: true)
    }

    /// A call to one step, retried there as the policy says: the answer, or `nil` when the request should move on
    /// to the next provider (after noting the error and any park).
    private func attempt(
        _ step: RoutedModel, call: (RoutedModel, DeliveryMark) async throws -> TextGeneration, lastError: inout ProviderError?,
        shortestPark: inout Duration?
    ) async throws -> TextGeneration? {
        let provider = step.provider
        var attempt = 1
        while true {
            let delivered = DeliveryMark()
            do {
                let answer = try await call(step, delivered)
                self.withBreaker(of: provider) { $0.record(failure: false, at: self.clock()) }
                if let wait = answer.rateLimitWait, wait > .zero {
                    // No room left until the reset: every worker waits for it instead of collecting 429s.
                    try await self.parking.park(provider.name, for: wait)
                }
                return answer
            } catch let error as ProviderError {
                lastError = error
                // A request the provider refused says nothing about the provider's health.
                let providerFailed = error.kind != .invalidRequest && error.kind != .contentRefused
                self.withBreaker(of: provider) { $0.record(failure: providerFailed, at: self.clock()) }
                if delivered.value.load(ordering: .relaxed) { throw error }
                switch self.policy.decide(error, attempt: attempt, unitRandom: Double.random(in: 0..<1)) {
                case .retry(let delay):
                    try await Task.sleep(for: delay)
                    attempt += 1
                    guard self.withBreaker(of: provider, { $0.allowsCall(at: self.clock()) }) else { break }
                    continue
                case .park(let duration):
                    try await self.parking.park(provider.name, for: duration)
                    shortestPark = min(shortestPark ?? duration, duration)
                case .disable:
                    self.withBreaker(of: provider) { $0.open(at: self.clock()) }
                case .nextProvider:
                    break
                case .fail:
                    throw error
                }
                break
            }
        }
        return nil
    }

    private func withBreaker<T>(of provider: any TextProvider, _ body: (inout CircuitBreaker) -> T) -> T {
        self.breakers.withLock { breakers in
            var breaker = breakers[provider.name] ?? CircuitBreaker()
            defer { breakers[provider.name] = breaker }
            return body(&breaker)
        }
    }
}

extension TextGenerationRequest {
    fileprivate func asking(_ model: String) -> TextGenerationRequest {
        var request = self
        request.model = model
        return request
    }
}
