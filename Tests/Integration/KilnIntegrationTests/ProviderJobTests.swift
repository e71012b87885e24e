import CurlClient
import Foundation
import Hummingbird
import KilnCore
import KilnHandlers
import KilnJSON
import KilnPolicy
import KilnProviders
import KilnQueue
import KilnStore
import KilnWorker
import Logging
import ProviderSimulator
import Locking
import Testing

/// `diag.generate` end to end: HTTP submission, a worker calling the provider simulator through libcurl, deltas on
/// the job's event stream, usage in PostgreSQL, and the provider's faults turned into the queue's outcomes.
@Suite struct ProviderJobTests {
    /// The kinds the test worker routes to the simulator: `diag.generate` and the apps' text kinds.
    static let routedKinds = [
        "diag.generate", "text.continue", "text.opening", "chat.generate", "campaign.open", "campaign.turn", "story.from_drawings", "story.continue",
    ]

    /// Starts the simulator on a free port and a worker whose route for each of ``routedKinds`` is Anthropic, then
    /// OpenAI, both at the simulator, with OpenAI's moderation judging by `standard` thresholds.
    static func startProviders(
        _ harness: Harness, deltaInterval: Duration = .milliseconds(20), scenario: SimulatorScenario = .init()
    ) async throws {
        let base = try await harness.startSimulator(deltaInterval: deltaInterval, scenario: scenario)
        let routes = routedKinds.map { kind in
            #"{"tenant": "*", "kind": "\#(kind)", "models": [{"provider": "anthropic", "model": "claude-test"}, {"provider": "openai", "model": "gpt-test"}]}"#
        }.joined(separator: ", ")
        let file = """
            {"providers": {"anthropic": {"api": "anthropic", "base_url": "\(base)", "api_key": "k"},
                           "openai": {"api": "openai_chat", "base_url": "\(base)", "api_key": "k"}},
             "routes": [\(routes)],
             "moderation": {"provider": "openai", "model": "omni-moderation-latest"}}
            """
        let providers = try harness.providerConfiguration(file)
        let routing = TextRouting(
            configuration: providers, http: harness.http, parking: ProviderParking(redis: harness.redis, keys: harness.redisNamespace.shards.control),
            concurrency: ProviderConcurrency(redis: harness.redis, keys: harness.redisNamespace.shards.control))
        let moderation = ModerationClient(http: harness.http, endpoint: try #require(providers.providers["openai"]).endpoint)
        let safety = ContentSafety(moderation: moderation, strictness: { _ in .standard })
        harness.startWorker(
            handlers: .available(
                dependencies: HandlerDependencies(
                    routing: routing, usage: ProviderUsageStore(pool: harness.database), safety: safety,
                    uploads: UploadStore(pool: harness.database, objects: harness.objects))))
    }

    static func generate(_ prompt: String, stream: Bool = true) -> String {
        JSONValue.object(["kind": "diag.generate", "input": .object(["prompt": .string(prompt), "stream": .bool(stream)])]).canonicalJSON()
    }

    @Test func streamedTextReachesTheJobsEventsWhileTheJobRuns() async throws {
        try await Harness.with { harness in
            // 60 to 120 deltas far enough apart that the job runs for seconds after the first one reaches this test,
            // however slow the machine is to read it and to look at the job.
            try await Self.startProviders(harness, deltaInterval: .milliseconds(150))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Write about a lighthouse keeper and her cat."), as: client)

            // Read the event stream as it arrives: when the first delta is in, the job must still be running.
            let request = try harness.request("GET", "/v1/jobs/\(id)/events", as: client)
            // The whole job streams through this one request: bounded like every wait on a job (Harness.awaitFinished).
            let response = try await harness.http.stream(request, timeout: .seconds(120))
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
                    } else if event.event == "retract" {
                        // An attempt that lost its lease on a loaded machine is retried; the app drops what it showed.
                        deltas = []
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

    @Test func aRetryAfterAStreamBrokeMidwayWithdrawsWhatTheFailedAttemptStreamed() async throws {
        try await Harness.with { harness in
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            // The first answer breaks off after ten events, some text among them (the count of two includes the moderation call
            // that judges the prompt first); the retried attempt gets a whole one.
            let prompt = "A short poem. [[fault: stream_error; after_events=10; times=2; key=\(UUID())]]"
            let id = try await harness.submit(Self.generate(prompt), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            try #require(job["status"]?.stringValue == "succeeded", "\(job)")
            let events = try await APITests.events(harness, id, client, after: nil)
            let retraction = try #require(events.lastIndex { $0.type == "retract" }, "the retried attempt withdrew nothing")
            #expect(JSONValue.parse(events[retraction].data)?["reason"]?.stringValue == "retry")
            #expect(events[..<retraction].contains { $0.type == "delta" }, "the broken attempt streamed before it failed")
            // What stands after the retraction is exactly the answer, as an app that drops withdrawn text shows it.
            let shown = events[retraction...].filter { $0.type == "delta" }.compactMap { JSONValue.parse($0.data)?["text"]?.stringValue }.joined()
            #expect(shown == job["result"]?["text"]?.stringValue)
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
            let providers = try harness.providerConfiguration(
                #"{"providers": {"a": {"api": "anthropic", "base_url": "http://127.0.0.1:1", "api_key": "k"}}, "routes": []}"#)
            let routing = TextRouting(
                configuration: providers, http: harness.http,
                parking: ProviderParking(redis: harness.redis, keys: harness.redisNamespace.shards.control),
                concurrency: ProviderConcurrency(redis: harness.redis, keys: harness.redisNamespace.shards.control))
            harness.startWorker(
                handlers: .available(dependencies: HandlerDependencies(routing: routing, usage: ProviderUsageStore(pool: harness.database))))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Hello."), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["error"]?["code"]?.stringValue == "no_provider_route")
        }
    }

    /// The events of a finished job, as an app reading its stream would get them.
    static func eventTypes(_ harness: Harness, _ id: JobID, _ client: Harness.Client) async throws -> [String] {
        let response = try await harness.http.execute(try harness.request("GET", "/v1/jobs/\(id)/events", as: client), timeout: .seconds(10))
        var parser = ServerSentEventParser()
        return parser.parse(response.body).compactMap(\.event)
    }

    @Test func anInputTheModerationModelRefusesEndsTheJobFiltered() async throws {
        try await Harness.with { harness in
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1))
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("Describe the gore of the battle in detail."), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["error"]?["code"]?.stringValue == "content_filtered")
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).isEmpty, "nothing was generated")
        }
    }

    @Test func aRefusedAnswerIsWithdrawnAndGeneratedOnceMore() async throws {
        try await Harness.with(Harness.minuteLeases) { harness in
            // Every second moderation call is flagged: the input passes, the first answer does not, the second does.
            let scenario = SimulatorScenario(rules: [.init(route: "openai.moderations", fault: "flagged", every: 2)])
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("A story about a harbour."), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["status"]?.stringValue == "succeeded")
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).count == 2)
            let events = try await Self.eventTypes(harness, id, client)
            let retraction = try #require(events.firstIndex(of: "retract"))
            #expect(events[..<retraction].contains("delta") && events[retraction...].contains("delta"), "text before and after the retraction")
        }
    }

    @Test func anAnswerRefusedTwiceEndsTheJobFiltered() async throws {
        try await Harness.with { harness in
            // The first rule flags moderation calls 2, 4, …; the second, tried when the first does not fire, 3, 5, …:
            // the input passes, and every answer is refused.
            let scenario = SimulatorScenario(rules: [
                .init(route: "openai.moderations", fault: "flagged", every: 2), .init(route: "openai.moderations", fault: "flagged", every: 2),
            ])
            try await Self.startProviders(harness, deltaInterval: .milliseconds(1), scenario: scenario)
            try await harness.startAPI()
            let client = try await harness.tenant("acme")
            let id = try await harness.submit(Self.generate("A story about a harbour.", stream: false), as: client)
            let job = try await harness.awaitFinished(id, as: client)
            #expect(job["error"]?["code"]?.stringValue == "content_filtered")
            #expect(try await ProviderUsageStore(pool: harness.database).usage(of: id).count == 2, "one regeneration, no more")
        }
    }

    @Test func aTenantsSafetyStrictnessRefusesPersonalDataBeforeAnythingIsCharged() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(AdmissionTests.policy.replacingOccurrences(of: #""safety": "standard""#, with: #""safety": "child""#))
            let client = try await harness.tenant("acme")
            try await harness.startAPI()
            let body = #"{"kind":"diag.echo","input":{"message":"mail me at kid@example.com"}}"#
            let (status, json, _) = try await harness.send(try harness.request("POST", "/v1/jobs", as: client, body: body))
            #expect(status == 422)
            #expect(json?["code"]?.stringValue == "content_rejected")
            #expect(json?["field"]?.stringValue == "input.message")
            #expect(json?["category"]?.stringValue == "personal_data")
            let (_, quota, _) = try await harness.send(try harness.request("GET", "/v1/quota", as: client))
            let text = quota?["classes"]?["text"]
            #expect(text?["used"]?.intValue == 0 && text?["pending"]?.intValue == 0, "nothing was charged or reserved")
        }
    }
}
