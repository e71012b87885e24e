import CurlClient
import Foundation
import Hummingbird
import KilnCore
import KilnHandlers
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker
import Logging
import ProviderSimulator
import Synchronization
import Testing

/// `diag.generate` end to end: HTTP submission, a worker calling the provider simulator through libcurl, deltas on
/// the job's event stream, usage in PostgreSQL, and the provider's faults turned into the queue's outcomes.
@Suite struct ProviderJobTests {
    /// Starts the simulator on a free port and a worker whose route for `diag.generate` is Anthropic, then OpenAI,
    /// both at the simulator.
    static func startProviders(_ harness: Harness, deltaInterval: Duration = .milliseconds(20)) async throws {
        var configuration = SimulatorConfiguration()
        configuration.port = 0
        configuration.deltaInterval = deltaInterval
        let port = PortBox()
        harness.run(ProviderSimulator.application(configuration: configuration, logger: harness.logger) { port.set($0) })
        let base = "http://127.0.0.1:\(try await port.wait())"
        let file = """
            {"providers": {"anthropic": {"api": "anthropic", "base_url": "\(base)", "api_key": "k"},
                           "openai": {"api": "openai_chat", "base_url": "\(base)", "api_key": "k"}},
             "routes": [{"tenant": "*", "kind": "diag.generate",
                         "models": [{"provider": "anthropic", "model": "claude-test"}, {"provider": "openai", "model": "gpt-test"}]}]}
            """
        let providers = try ProviderConfiguration.load(Data(file.utf8), environment: [:], directory: TestServers.repositoryRoot)
        let routing = TextRouting(configuration: providers, http: harness.http, parking: ProviderParking(redis: harness.redis, namespace: harness.namespace))
        harness.startWorker(handlers: .withProviders(routing: routing, usage: ProviderUsageStore(pool: harness.database)))
    }

    static func generate(_ prompt: String, stream: Bool = true) -> String {
        JSONValue.object(["kind": "diag.generate", "input": .object(["prompt": .string(prompt), "stream": .bool(stream)])]).canonicalJSON()
    }

    @Test func streamedTextReachesTheJobsEventsWhileTheJobRuns() async throws {
        try await Harness.with { harness in
            try await Self.startProviders(harness)
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Write about a lighthouse keeper and her cat."), as: client)

            // Read the event stream as it arrives: when the first delta is in, the job must still be running.
            let request = try harness.request("GET", "/v1/jobs/\(id)/events", as: client)
            let response = try await harness.http.stream(request, timeout: .seconds(30))
            var parser = ServerSentEventParser()
            var deltas: [String] = []
            var stateAtFirstDelta: String?
            var finalResult: JSONValue?
            events: for try await chunk in response.body {
                for event in parser.parse(chunk) {
                    let data = JSONValue.parse(event.data)
                    if event.event == "delta", let text = data?["text"]?.stringValue {
                        if deltas.isEmpty {
                            let (_, job, _) = try await harness.send(try harness.request("GET", "/v1/jobs/\(id)", as: client))
                            stateAtFirstDelta = job?["status"]?.stringValue
                        }
                        deltas.append(text)
                    } else if event.event == "status", data?["state"]?.stringValue == "succeeded" {
                        finalResult = data?["result"]
                        break events
                    }
                }
            }
            #expect(stateAtFirstDelta == "running")
            #expect(deltas.count > 10)
            let result = try #require(finalResult)
            #expect(result["text"]?.stringValue == deltas.joined())
            #expect(result["provider"]?.stringValue == "anthropic")

            // The usage the provider reported is on record for the job.
            let usage = try await ProviderUsageStore(pool: harness.database).usage(of: id)
            #expect(usage.count == 1)
            #expect(usage.first?.outputTokens == result["usage"]?["output_tokens"]?.intValue)
            #expect(usage.first?.model == "claude-test")
        }
    }

    @Test func aThrottledProviderReschedulesTheJobWithoutSpendingAnAttempt() async throws {
        try await Harness.with { harness in
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            // Both providers answer 429 with retry-after: 1 once; then they answer.
            let prompt = "A short poem. [[fault: rate_limit; retry_after=1; times=2; key=\(UUID())]]"
            let id = try await harness.submit(Self.generate(prompt, stream: false), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["status"]?.stringValue == "succeeded")
            let snapshot = try #require(try await harness.queue.snapshot(id, tenant: client.tenant.id))
            #expect(snapshot.tries == 1, "throttling spent no attempt")
            #expect(snapshot.attempt >= 2, "the job was claimed again after the park")
        }
    }

    @Test func aRequestTheProviderRefusesFailsTheJobWithTheProvidersReason() async throws {
        try await Harness.with { harness in
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Anything. [[fault: status; code=400]]"), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(["failed", "dead"].contains(job["status"]?.stringValue))
            #expect(job["error"]?["code"]?.stringValue == "provider_invalidRequest")
        }
    }

    @Test func aKindWithoutARouteIsRefusedByTheWorkerNotRetried() async throws {
        try await Harness.with { harness in
            let providers = try ProviderConfiguration.load(
                Data(#"{"providers": {"a": {"api": "anthropic", "base_url": "http://127.0.0.1:1", "api_key": "k"}}, "routes": []}"#.utf8),
                environment: [:], directory: TestServers.repositoryRoot)
            let routing = TextRouting(configuration: providers, http: harness.http, parking: ProviderParking(redis: harness.redis, namespace: harness.namespace))
            harness.startWorker(handlers: .withProviders(routing: routing, usage: ProviderUsageStore(pool: harness.database)))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Hello."), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["error"]?["code"]?.stringValue == "no_provider_route")
        }
    }
}
