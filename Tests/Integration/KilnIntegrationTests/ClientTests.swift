import Foundation
import IdentityFixtures
import KilnClient
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The apps' client against a running Kiln: the event stream surviving cuts, a submission retried after a lost answer,
/// `Retry-After` waited out within the budget and not beyond, refusals with their field, App Store credentials.
@Suite struct ClientTests {
    /// `diag.generate`'s input and result, as a test app would type them.
    struct GenerateInput: Encodable, Sendable {
        let prompt: String
    }

    struct Generated: Decodable, Sendable, Equatable {
        let text: String
    }

    static let generate = Kind<GenerateInput, Generated>("diag.generate")

    struct EchoInput: Encodable, Sendable {
        let message: String
    }

    struct Echoed: Decodable, Sendable, Equatable {}

    static let echo = Kind<EchoInput, Echoed>("diag.echo")

    struct SleepInput: Encodable, Sendable {
        let seconds: Double
        var progressSteps: Int?

        enum CodingKeys: String, CodingKey {
            case seconds
            case progressSteps = "progress_steps"
        }
    }

    static let sleep = Kind<SleepInput, Echoed>("diag.sleep")

    /// Cut four times mid-stream (inside an event), the sequence resumes after the last whole event: it is the full
    /// read's, with nothing lost and nothing twice.
    @Test func theEventStreamSurvivesConnectionsCutMidStream() async throws {
        try await Harness.with { harness in
            try await ProviderJobTests.startProviders(harness, deltaInterval: .milliseconds(5))
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let cutting = FaultyTransport(.cutBody(after: 301, times: 4), path: "/events")
            let kiln = try harness.kiln(client, transport: cutting)
            let job = try await kiln.submit(Self.generate, input: GenerateInput(prompt: "A story about a lighthouse keeper and a storm."))
            var cut: [JobEvent<Generated>] = []
            for try await event in kiln.events(of: job) { cut.append(event) }

            var full: [JobEvent<Generated>] = []
            for try await event in try harness.kiln(client).events(of: job) { full.append(event) }
            #expect(cutting.requests.count >= 5, "the stream was cut and resumed")
            #expect(cut == full)
            // What stands is what streamed after the last retraction (a retried attempt's text starts with one).
            let standing = full.split { if case .retract = $0 { true } else { false } }.last ?? []
            let deltas = standing.compactMap { event -> String? in if case .delta(let text, _) = event { text } else { nil } }
            guard case .succeeded(let result)? = full.last else { throw TestFailure("the stream did not end with the result: \(full)") }
            // How many events the text came in varies: an attempt joins the deltas that arrive while it writes one,
            // and under load each write takes longer. The cuts above show the stream was long enough to be cut.
            #expect(!deltas.isEmpty)
            #expect(deltas.joined() == result.text)
        }
    }

    /// Read after the job ended, and cut inside its first event four times (every event is longer than the cut): the
    /// client does not take the job's end for the stream's, and gives every event. A connection that broke inside an
    /// event brought something; only one that brought nothing lets the job itself say how it ended.
    @Test func aStreamCutInsideEveryEventOfAnEndedJobStillGivesEveryEvent() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            harness.startWorker()
            let client = try await harness.tenant("talevonia")
            let job = try await harness.kiln(client).submit(Self.sleep, input: SleepInput(seconds: 0.2, progressSteps: 4))
            _ = try await harness.kiln(client).result(of: job)
            var full: [JobEvent<Echoed>] = []
            for try await event in try harness.kiln(client).events(of: job) { full.append(event) }
            let cutting = FaultyTransport(.cutBody(after: 20, times: 4), path: "/events")
            var cut: [JobEvent<Echoed>] = []
            for try await event in try harness.kiln(client, transport: cutting).events(of: job) { cut.append(event) }
            #expect(cutting.requests.count == 5, "cut four times, then whole")
            #expect(full.count > 4, "queued, running, progress and the end: \(full)")
            #expect(cut == full)
        }
    }

    /// The answer to a submission is lost (a timeout): the client sends it again with the same `Idempotency-Key`, and the
    /// server answers with the job the first one made.
    @Test func aSubmissionRetriedAfterATimeoutReturnsTheSameJob() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            harness.startWorker()
            let client = try await harness.tenant("talevonia")
            let losing = FaultyTransport(.loseAnswer(times: 1), path: "/v1/jobs")
            let kiln = try harness.kiln(client, transport: losing)
            let job = try await kiln.submit(Self.echo, input: EchoInput(message: "once"))
            let first = try JSONDecoder().decode(Job<Echoed>.self, from: try #require(losing.lostAnswers.first))
            #expect(job.id == first.id)
            let keys = losing.requests.map { $0.value(forHTTPHeaderField: "Idempotency-Key") }
            #expect(keys.count == 2)
            #expect(keys[0] != nil && keys[0] == keys[1])
            #expect(try await kiln.result(of: job) == Echoed())
        }
    }

    /// A tenant whose free tier makes a device wait 2 s between text jobs (`diag.echo`), and an hour between image jobs
    /// (`diag.sleep`, standing in for one).
    static let cooldownPolicy = """
        {"cooling": {
          "identity_modes": ["trusted_server"], "reset_time_zone": "UTC", "safety": "standard",
          "tiers": {"free": {"lowest": true, "daily": {"text": 100, "image": 100},
                             "device_cooldown_seconds": {"text": 2, "image": 3600}, "running_jobs": 100,
                             "refund_cap": 1, "max_devices_per_day": 4}},
          "kinds": {"diag.echo": {"class": "text", "cost": 1}, "diag.sleep": {"class": "image", "cost": 1}},
          "abuse": {"shadow_mode": true, "max_identities_per_device_per_day": 3,
                    "identity_velocity": {"count": 100, "period_seconds": 60, "burst": 50},
                    "ip_velocity": {"count": 600, "period_seconds": 60, "burst": 300},
                    "refund_ratio": {"min_count": 3, "ratio": 0.5}, "safety_rejections": {"min_count": 3, "ratio": 0.3},
                    "escalation": {"cooldown_seconds": 600, "block_seconds": 86400}}}}
        """

    @Test func a429IsWaitedOutWithinTheBudgetAndThrownBeyondIt() async throws {
        try await Harness.with { harness in
            try harness.usePolicies(Self.cooldownPolicy)
            let client = try await harness.tenant("cooling")
            try await harness.startAPI()
            let patient = try harness.kiln(client, device: "phone-1", budget: .seconds(10))
            let first = try await patient.submit(Self.echo, input: EchoInput(message: "one"))
            // The device's cooldown refuses the next one with Retry-After; the client waits it out and is admitted.
            let second = try await patient.submit(Self.echo, input: EchoInput(message: "two"))
            #expect(first.id != second.id)

            // An hour's cooldown does not fit a budget of 10 s: the refusal is the caller's, with when to try again.
            _ = try await patient.submit(Self.sleep, input: SleepInput(seconds: 0))
            let error = try await #require(throws: KilnError.self) { try await patient.submit(Self.sleep, input: SleepInput(seconds: 0)) }
            #expect(error.status == 429)
            #expect(error.code == "device_cooldown")
            let wait = try #require(error.retryAfter)
            #expect(wait > .seconds(10) && wait <= .seconds(3600))
        }
    }

    @Test func aRefusalIsAKilnErrorWithItsField() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            let client = try await harness.tenant("talevonia")
            let kiln = try harness.kiln(client)
            let error = try await #require(throws: KilnError.self) {
                try await kiln.submit(.textContinue, input: TextContinueInput(pathSummaries: ["Mira takes the job."], lastNodeText: ""))
            }
            #expect(error.status == 400)
            #expect(error.code == "invalid_input")
            #expect(error.field == "input.last_node_text")
            #expect(!error.upgradeAvailable)
        }
    }

    @Test func aPremiumThemeFromTheFreeTierIsRefusedWithItsFieldAndTheUpgrade() async throws {
        try await Harness.with { harness in
            let client = try await ChatExportJobTests.start(harness)
            var settings = ChatExportSettings()
            settings.theme = .discord
            let conversation = ChatConversation(
                characters: [ChatCharacter(id: "me", name: "Me", color: "#0A84FF"), ChatCharacter(id: "sam", name: "Sam", color: "#34C759")],
                messages: [ChatMessageLine(character: "sam", text: "Coming tonight?")])
            let error = try await #require(throws: KilnError.self) {
                try await harness.kiln(client).submit(.videoChatExport, input: ChatExportInput(conversation: conversation, settings: settings))
            }
            #expect(error.status == 403)
            #expect(error.code == "upgrade_required")
            #expect(error.field == "input.settings.theme")
            #expect(error.upgradeAvailable)
        }
    }

    @Test func anErasedIdentityHasNoJobLeft() async throws {
        try await Harness.with { harness in
            try await harness.startAPI()
            harness.startWorker()
            let kiln = try harness.kiln(try await harness.tenant("talevonia"), identity: "leaving")
            let upload = try await kiln.upload(Data("a drawing".utf8), contentType: "image/png")
            #expect(upload.size == 9)
            let job = try await kiln.submit(Self.echo, input: EchoInput(message: "forget me"))
            #expect(try await kiln.result(of: job) == Echoed())
            let erasure = try await kiln.eraseIdentity()
            #expect(erasure.isComplete)
            #expect(erasure.jobs == 1 && erasure.uploads == 1)
            let gone = try await #require(throws: KilnError.self) { try await kiln.job(job) }
            #expect(gone.status == 404 && gone.code == "job_not_found")
        }
    }

    /// A signed AppTransaction made by the fixtures' stand-in for Apple is accepted; the same one signed by another
    /// authority is refused before anything is queued.
    @Test func anAppStoreCredentialIsAcceptedAndAForgedOneRefused() async throws {
        try await Harness.with { harness in
            let (apple, store, _) = try await IdentityTests.start(harness)
            harness.startWorker()
            let genuine = try IdentityTests.appTransaction(apple)
            let kiln = try harness.kiln(store, credential: .appTransaction(jws: genuine))
            let job = try await kiln.submit(Self.echo, input: EchoInput(message: "hi"))
            #expect(try await kiln.result(of: job) == Echoed())
            #expect(try await kiln.quota().classes["text"]?.used == 1)

            let forged = try IdentityTests.appTransaction(try TestCertificateAuthority(name: "Apple"))
            let error = try await #require(throws: KilnError.self) {
                try await harness.kiln(store, credential: .appTransaction(jws: forged)).submit(Self.echo, input: EchoInput(message: "hi"))
            }
            #expect(error.status == 401)
            #expect(error.code == "untrusted_chain")
        }
    }
}
