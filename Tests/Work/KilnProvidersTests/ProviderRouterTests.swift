import Foundation
import KilnCore
import KilnKeys
import KilnProviders
import RedisClient
import Locking
import Testing

/// The router against the simulator, with its parking in the real Redis the test command started.
@Suite struct ProviderRouterTests {
    /// A provider that counts the calls that reach it.
    final class Counted: TextProvider {
        let inner: any TextProvider
        let calls = Locked(0)
        var name: String { self.inner.name }

        init(_ inner: any TextProvider) {
            self.inner = inner
        }

        var count: Int { self.calls.withLock { $0 } }

        func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
            self.calls.withLock { $0 += 1 }
            return try await self.inner.generate(request)
        }

        func stream(_ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void) async throws -> TextGeneration {
            self.calls.withLock { $0 += 1 }
            return try await self.inner.stream(request, onDelta: onDelta)
        }
    }

    static let request = TextGenerationRequest(model: "unused", messages: [.user("Tell me about the sea.")])

    static func route(_ providers: any TextProvider...) -> [RoutedModel] {
        providers.map { RoutedModel(provider: $0, model: "test-model") }
    }

    /// Parking on a namespace of the test's own, so tests never see each other's parked providers.
    func parking() throws -> (ProviderParking, RedisPool) {
        let url = try #require(ProcessInfo.processInfo.environment["KILN_TEST_REDIS_URL"], "run the tests with deploy/local/test.sh")
        let configuration = try #require(RedisConfiguration(url: url))
        let pool = RedisPool(configuration: configuration)
        return (ProviderParking(redis: pool, keys: KeySpace(namespace: "test-\(UUID().uuidString.prefix(8))")), pool)
    }

    @Test func aRetryAfterParksTheProviderForEveryWorkerWithoutAnotherCall() async throws {
        let (parking, pool) = try self.parking()
        try await SimulatorFixture.with { fixture in
            let throttled = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint(fault: "rate_limit; retry_after=300")))
            let first = ProviderRouter(name: "text", models: Self.route(throttled), parking: parking)
            let error = await #expect(throws: ProviderError.self) { try await first.generate(Self.request) }
            #expect(error?.kind == .rateLimited)
            #expect(error?.retryAfter == .seconds(300))
            #expect(throttled.count == 1, "a throttled provider is not retried in-process")

            // Another worker, with the same provider healthy: it does not call it while the park lasts.
            let healthy = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint()))
            let second = ProviderRouter(name: "text", models: Self.route(healthy), parking: parking)
            let parked = await #expect(throws: ProviderError.self) { try await second.generate(Self.request) }
            #expect(parked?.kind == .rateLimited)
            let wait = try #require(parked?.retryAfter)
            // What is left of the park: less than it was by the time this took, minutes on any machine.
            #expect(wait > .seconds(240) && wait <= .seconds(300))
            #expect(healthy.count == 0)
        }
        try await pool.close()
    }

    @Test func theFallbackTakesOverWhileThePrimaryIsOpenAndThePrimaryComesBack() async throws {
        let (parking, pool) = try self.parking()
        try await SimulatorFixture.with { fixture in
            // The primary's key is refused once: that opens its circuit at once.
            let primary = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint(fault: "status; code=401; times=1; key=\(UUID())")))
            let fallback = Counted(OpenAIChatClient(http: fixture.http, endpoint: fixture.endpoint()))
            let elapsed = Locked(Duration.zero)
            let start = ContinuousClock.now
            let router = ProviderRouter(
                name: "text", models: Self.route(primary, fallback), parking: parking, clock: { start + elapsed.withLock { $0 } })

            let answer = try await router.generate(Self.request)
            #expect(!answer.text.isEmpty)
            #expect((primary.count, fallback.count) == (1, 1))
            guard case .open = router.circuits["anthropic"] else {
                Issue.record("the primary's circuit is \(String(describing: router.circuits["anthropic"]))")
                return
            }
            _ = try await router.generate(Self.request)
            #expect((primary.count, fallback.count) == (1, 2), "an open circuit is skipped")

            elapsed.withLock { $0 = .seconds(31) }
            _ = try await router.generate(Self.request)
            #expect((primary.count, fallback.count) == (2, 2), "the probe goes to the primary, which answers")
            #expect(router.circuits["anthropic"] == .closed)
        }
        try await pool.close()
    }

    @Test func serverErrorsAreRetriedInPlaceBeforeTheFallback() async throws {
        let (parking, pool) = try self.parking()
        try await SimulatorFixture.with { fixture in
            let flaky = Counted(OpenAIChatClient(http: fixture.http, endpoint: fixture.endpoint(fault: "server_error; times=2; key=\(UUID())")))
            let fallback = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint()))
            let policy = ProviderCallPolicy(retry: .exponentialJitter(maxAttempts: 3, baseDelay: .milliseconds(10), maxDelay: .milliseconds(20)))
            let router = ProviderRouter(name: "text", models: Self.route(flaky, fallback), policy: policy, parking: parking)
            let answer = try await router.generate(Self.request)
            #expect(!answer.text.isEmpty)
            #expect((flaky.count, fallback.count) == (3, 0))
        }
        try await pool.close()
    }

    @Test func aStreamThatBrokeAfterTextReachedListenersIsNotRepeated() async throws {
        let (parking, pool) = try self.parking()
        try await SimulatorFixture.with { fixture in
            let cut = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint(fault: "cut; after_events=6")))
            let fallback = Counted(OpenAIChatClient(http: fixture.http, endpoint: fixture.endpoint()))
            let router = ProviderRouter(name: "text", models: Self.route(cut, fallback), parking: parking)
            let error = await #expect(throws: ProviderError.self) { _ = try await router.stream(Self.request) { _ in } }
            #expect(error?.kind == .transport)
            #expect((cut.count, fallback.count) == (1, 0))
        }
        try await pool.close()
    }

    @Test func aConcurrencyCapHoldsAcrossWorkersAndFreesItsSlot() async throws {
        let (parking, pool) = try self.parking()
        let namespace = "test-\(UUID().uuidString.prefix(8))"
        let concurrency = ProviderConcurrency(redis: pool, keys: KeySpace(namespace: namespace))
        try await SimulatorFixture.with { fixture in
            // Worker A's call takes the only slot and holds it while the provider thinks, for longer than a loaded
            // machine takes over the rest.
            let slow = AnthropicClient(
                http: fixture.http, endpoint: fixture.endpoint(fault: "slow_first_byte; delay_ms=20000", firstByteTimeout: .seconds(60)))
            let first = ProviderRouter(
                name: "text", models: [RoutedModel(provider: slow, model: "m", maxConcurrent: 1)], parking: parking, concurrency: concurrency)
            let held = Task { try await first.generate(Self.request) }
            // Once its slot is taken, however long a loaded machine took to get there.
            while try await pool.send(["ZCARD", "{\(namespace)}:provider:anthropic:m:slots"]).int != 1 {
                try await Task.sleep(for: .milliseconds(10))
            }

            // Worker B, same provider and model: no slot, so no call, and the job is told to come back shortly.
            let fast = Counted(AnthropicClient(http: fixture.http, endpoint: fixture.endpoint()))
            let second = ProviderRouter(
                name: "text", models: [RoutedModel(provider: fast, model: "m", maxConcurrent: 1)], parking: parking, concurrency: concurrency)
            let busy = await #expect(throws: ProviderError.self) { try await second.generate(Self.request) }
            #expect(busy?.kind == .rateLimited)
            #expect(busy?.retryAfter == ProviderRouter.busyWait)
            #expect(fast.count == 0)

            _ = try await held.value
            let answer = try await second.generate(Self.request)
            #expect(!answer.text.isEmpty, "the slot came back when the first call ended")
        }
        try await pool.close()
    }

    /// A provider whose answers say its requests are used up for a while, as its rate-limit headers would.
    struct Exhausted: TextProvider {
        let inner: any TextProvider
        let wait: Duration
        var name: String { self.inner.name }

        func generate(_ request: TextGenerationRequest) async throws -> TextGeneration {
            var answer = try await self.inner.generate(request)
            answer.rateLimitWait = self.wait
            return answer
        }

        func stream(_ request: TextGenerationRequest, onDelta: @escaping @Sendable (TextDelta) throws -> Void) async throws -> TextGeneration {
            var answer = try await self.inner.stream(request, onDelta: onDelta)
            answer.rateLimitWait = self.wait
            return answer
        }
    }

    @Test func anAnswerThatUsesUpTheRateLimitParksTheProviderUntilItsReset() async throws {
        let (parking, pool) = try self.parking()
        try await SimulatorFixture.with { fixture in
            // A reset far off, so the park measured below is the answer's however slowly a loaded machine runs the test.
            let exhausted = Exhausted(inner: AnthropicClient(http: fixture.http, endpoint: fixture.endpoint()), wait: .seconds(300))
            let fallback = Counted(OpenAIChatClient(http: fixture.http, endpoint: fixture.endpoint()))
            let router = ProviderRouter(name: "text", models: Self.route(exhausted, fallback), parking: parking)
            _ = try await router.generate(Self.request)
            let parked = try #require(try await parking.remaining("anthropic"))
            #expect(parked > .seconds(240) && parked <= .seconds(300))
            _ = try await router.generate(Self.request)
            #expect(fallback.count == 1, "the next request goes to the fallback without a 429")
        }
        try await pool.close()
    }
}
