import Foundation
import KilnCore
import KilnKeys
import KilnProviders
import RedisClient
import Testing

/// What a worker's heartbeat says of its providers: each route step's circuit, and the park and slots it shares with
/// the fleet in the real Redis.
@Suite struct ProviderReadingsTests {
    static let file = """
        {
          "providers": {
            "primary": { "api": "anthropic", "base_url": "http://127.0.0.1:1", "api_key": "unused" },
            "spare": { "api": "openai_chat", "base_url": "http://127.0.0.1:1", "api_key": "unused", "max_concurrent": 4 }
          },
          "routes": [
            { "tenant": "acme", "kind": "diag.generate",
              "models": [{ "provider": "primary", "model": "first-model" }, { "provider": "spare", "model": "second-model" }] }
          ]
        }
        """

    @Test func anOpenCircuitAParkAndTheSlotsInUseShowInTheReadings() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["KILN_TEST_REDIS_URL"], "run the tests with deploy/local/test.sh")
        let pool = RedisPool(configuration: try #require(RedisConfiguration(url: url)))
        let keys = KeySpace(namespace: "test-\(UUID().uuidString.prefix(8))")
        let parking = ProviderParking(redis: pool, keys: keys)
        let concurrency = ProviderConcurrency(redis: pool, keys: keys)
        try await SimulatorFixture.with { fixture in
            var configuration = try ProviderConfiguration.load(
                Data(Self.file.utf8), environment: [:], directory: URL(fileURLWithPath: "/"))
            // The primary's key is refused: that opens its circuit at once, and the spare answers.
            configuration.providers["primary"]?.endpoint = fixture.endpoint(fault: "status; code=401; key=\(UUID())")
            configuration.providers["spare"]?.endpoint = fixture.endpoint()
            let text = TextRouting(configuration: configuration, http: fixture.http, parking: parking, concurrency: concurrency)
            let images = ImageRouting(configuration: configuration, http: fixture.http, parking: parking, concurrency: concurrency)
            let readings = ProviderReadings(text: text, images: images, parking: parking, concurrency: concurrency)

            let before = try await readings.current()
            #expect(before.map(\.route) == ["acme/diag.generate", "acme/diag.generate"])
            #expect(before.map(\.provider) == ["primary", "spare"])
            #expect(before.map(\.model) == ["first-model", "second-model"])
            #expect(before.map(\.circuit) == [.closed, .closed])
            #expect(before.allSatisfy { $0.parkedUntilMilliseconds == nil && $0.openUntilMilliseconds == nil })
            #expect(before.map(\.slotCap) == [nil, 4])
            #expect(before.map(\.slotsInUse) == [nil, 0])

            let router = try #require(text.router(tenant: "acme", kind: "diag.generate"))
            _ = try await router.generate(TextGenerationRequest(model: "unused", messages: [.user("Hello.")]))
            try await parking.park("spare", for: .seconds(30))
            let slot = try #require(try await concurrency.acquire(provider: "spare", model: "second-model", cap: 4))
            let now = Int64(Date().timeIntervalSince1970 * 1000)

            let after = try await readings.current()
            let primary = try #require(after.first { $0.provider == "primary" })
            #expect(primary.circuit == .open)
            #expect(try #require(primary.openUntilMilliseconds) > now)
            #expect(primary.parkedUntilMilliseconds == nil)
            let spare = try #require(after.first { $0.provider == "spare" })
            #expect(spare.circuit == .closed)
            #expect(try #require(spare.parkedUntilMilliseconds) > now)
            #expect(spare.slotsInUse == 1)
            #expect(spare.recentCalls == 1 && spare.recentFailures == 0, "the spare answered the one call")
            try await concurrency.release(slot)
            #expect(try await readings.current().first { $0.provider == "spare" }?.slotsInUse == 0)
        }
        _ = try await pool.send(["DEL", keys.providerParked("spare"), keys.providerSlots("spare", model: "second-model")])
        try await pool.close()
    }
}
