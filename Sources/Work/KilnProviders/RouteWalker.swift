import Foundation
import Locking

/// Walks a route's steps for one request, with the resilience every routed call shares, text or image: each request
/// goes to the first provider that is neither parked nor at its fleet-wide concurrency cap nor behind an open circuit,
/// is retried there as ``ProviderCallPolicy`` says, and moves on to the next when that provider gives up.
///
/// When none is left, the last provider's error is thrown; if every provider was parked it is a throttling error
/// whose `retryAfter` is the shortest park, so the job goes back to the queue for that long without spending an
/// attempt.
final class RouteWalker: Sendable {
    /// One step of a route, by provider name.
    struct Step: Sendable {
        let provider: String
        let model: String
        let maxConcurrent: Int?
    }

    /// Whether a call has handed output to its listeners: after that it is not retried, which would repeat it.
    final class DeliveryMark: Sendable {
        private let value = Locked(false)

        func markDelivered() { value.withLock { $0 = true } }
        var isDelivered: Bool { value.withLock { $0 } }
    }

    let name: String
    let steps: [Step]
    private let policy: ProviderCallPolicy
    private let parking: ProviderParking
    private let concurrency: ProviderConcurrency?
    private let breakers: Locked<[String: CircuitBreaker]>
    private let clock: @Sendable () -> ContinuousClock.Instant

    /// How long a request waits for a slot when every one is taken, before the job asks again.
    static let busyWait = Duration.seconds(1)

    init(
        name: String, steps: [Step], policy: ProviderCallPolicy, parking: ProviderParking, concurrency: ProviderConcurrency?,
        breaker: CircuitBreaker.Configuration, clock: @escaping @Sendable () -> ContinuousClock.Instant
    ) {
        self.name = name
        self.steps = steps
        self.policy = policy
        self.parking = parking
        self.concurrency = concurrency
        self.clock = clock
        self.breakers = Locked(
            Dictionary(steps.map { ($0.provider, CircuitBreaker(configuration: breaker)) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Where each provider's circuit stands, by name.
    var circuits: [String: CircuitBreaker.State] {
        self.breakers.withLock { $0.mapValues(\.state) }
    }

    /// Each provider's breaker as it stands: its state and its recent calls.
    var breakerSnapshots: [String: CircuitBreaker] {
        self.breakers.withLock { $0 }
    }

    /// The time circuits open and close by, now.
    var now: ContinuousClock.Instant { self.clock() }

    /// Sends the request through the steps: `call` makes it to step `index`; `rateLimitWait` says how long an answer
    /// reports its provider to be out of room (every worker then waits that long instead of collecting 429s).
    func walk<Answer>(
        _ call: (_ index: Int, DeliveryMark) async throws -> Answer, rateLimitWait: (Answer) -> Duration?
    ) async throws -> Answer {
        var lastError: ProviderError?
        var shortestPark: Duration?
        for (index, step) in self.steps.enumerated() {
            if let parked = try await self.parking.remaining(step.provider) {
                shortestPark = min(shortestPark ?? parked, parked)
                continue
            }
            let slot: ProviderConcurrency.Slot?
            if let cap = step.maxConcurrent, let concurrency = self.concurrency {
                slot = try await concurrency.acquire(provider: step.provider, model: step.model, cap: cap)
                guard slot != nil else {
                    // Every slot is taken fleet-wide: as good as parked for a moment.
                    shortestPark = min(shortestPark ?? Self.busyWait, Self.busyWait)
                    continue
                }
            } else {
                slot = nil
            }
            // The breaker is asked last: a half-open one makes this call its probe, which must then be made.
            guard self.withBreaker(of: step.provider, { $0.allowsCall(at: self.clock()) }) else {
                if let slot { try? await self.concurrency?.release(slot) }
                continue
            }
            do {
                let outcome = try await self.attempt(
                    step, call: { try await call(index, $0) }, rateLimitWait: rateLimitWait, lastError: &lastError, shortestPark: &shortestPark)
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
    private func attempt<Answer>(
        _ step: Step, call: (DeliveryMark) async throws -> Answer, rateLimitWait: (Answer) -> Duration?, lastError: inout ProviderError?,
        shortestPark: inout Duration?
    ) async throws -> Answer? {
        var attempt = 1
        while true {
            let delivered = DeliveryMark()
            do {
                let answer = try await call(delivered)
                self.withBreaker(of: step.provider) { $0.record(failure: false, at: self.clock()) }
                if let wait = rateLimitWait(answer), wait > .zero {
                    try await self.parking.park(step.provider, for: wait)
                }
                return answer
            } catch let error as ProviderError {
                lastError = error
                // A request the provider refused says nothing about the provider's health.
                let providerFailed = error.kind != .invalidRequest && error.kind != .contentRefused
                self.withBreaker(of: step.provider) { $0.record(failure: providerFailed, at: self.clock()) }
                if delivered.isDelivered { throw error }
                switch self.policy.decide(error, attempt: attempt, unitRandom: Double.random(in: 0..<1)) {
                case .retry(let delay):
                    try await Task.sleep(for: delay)
                    attempt += 1
                    guard self.withBreaker(of: step.provider, { $0.allowsCall(at: self.clock()) }) else { break }
                    continue
                case .park(let duration):
                    try await self.parking.park(step.provider, for: duration)
                    shortestPark = min(shortestPark ?? duration, duration)
                case .disable:
                    self.withBreaker(of: step.provider) { $0.open(at: self.clock()) }
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

    private func withBreaker<T>(of provider: String, _ body: (inout CircuitBreaker) -> T) -> T {
        self.breakers.withLock { breakers in
            var breaker = breakers[provider] ?? CircuitBreaker()
            defer { breakers[provider] = breaker }
            return body(&breaker)
        }
    }
}
