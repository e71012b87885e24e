/// Every kind Kiln knows, by name.
public struct JobKindCatalog: Sendable {
    private var kinds: [String: JobKind]

    public init(_ kinds: [JobKind]) {
        self.kinds = Dictionary(kinds.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(name: String) -> JobKind? { kinds[name] }

    public var names: [String] { kinds.keys.sorted() }

    /// The diagnostic kinds used by tests and benchmarks; tenants enable them explicitly.
    public static let diagnostics: [JobKind] = [
        JobKind(
            name: "diag.echo", input: EchoInput.self, jobClass: .io, timeout: .seconds(30),
            retry: .exponentialJitter(maxAttempts: 3), isDiagnostic: true),
        JobKind(
            name: "diag.sleep", input: SleepInput.self, jobClass: .io, timeout: .seconds(3700),
            retry: .exponentialJitter(maxAttempts: 3), isDiagnostic: true),
        JobKind(
            name: "diag.fail", input: FailInput.self, jobClass: .io, timeout: .seconds(30),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(5)), isDiagnostic: true),
        JobKind(
            name: "diag.generate", input: GenerateInput.self, jobClass: .io, timeout: .seconds(300),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)), isDiagnostic: true),
    ]

    /// The apps' kinds.
    public static let products: [JobKind] = [
        // Rendering takes seconds of both cores per minute of video; a crash of the encoder is worth one more try.
        JobKind(
            name: "video.chat_export", input: ChatExportInput.self, jobClass: .cpu, timeout: .seconds(900),
            retry: .exponentialJitter(maxAttempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(30))),
        // Documents: a 200-page PDF takes about two seconds; share pages store pictures and a card as well.
        documentKind("document.export", input: DocumentExportInput.self),
        documentKind("share.card", input: ShareCardInput.self),
        documentKind("share.publish", input: SharePublishInput.self),
        // Text generation: one model call, one repair and one safer regeneration fit well inside two minutes.
        textKind("text.continue", input: TextContinueInput.self),
        textKind("text.opening", input: TextOpeningInput.self),
        textKind("chat.generate", input: ChatGenerateInput.self),
        textKind("campaign.open", input: CampaignOpenInput.self),
        textKind("campaign.turn", input: CampaignTurnInput.self),
        textKind("story.from_drawings", input: StoryFromDrawingsInput.self),
        textKind("story.continue", input: StoryContinueInput.self),
        // Images: fal.ai's queue can take a minute under load, and an edit uploads its inputs first.
        imageKind("image.generate", input: ImageGenerateInput.self),
        imageKind("image.illustrate", input: IllustrateInput.self),
        imageKind("image.cover", input: CoverInput.self),
    ]

    /// A kind that asks an image model for one picture: I/O-bound, retried like any provider call.
    private static func imageKind<Input: KindInput>(_ name: String, input: Input.Type) -> JobKind {
        JobKind(
            name: name, input: input, jobClass: .io, timeout: .seconds(300),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(2), maxDelay: .seconds(60)))
    }

    /// A kind that renders a document, card or page on the worker: CPU-bound, retried once after a crash.
    private static func documentKind<Input: KindInput>(_ name: String, input: Input.Type) -> JobKind {
        JobKind(
            name: name, input: input, jobClass: .cpu, timeout: .seconds(300),
            retry: .exponentialJitter(maxAttempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(30)))
    }

    /// A kind that asks a text model for a structured answer: I/O-bound, retried like any provider call.
    private static func textKind<Input: KindInput>(_ name: String, input: Input.Type) -> JobKind {
        JobKind(
            name: name, input: input, jobClass: .io, timeout: .seconds(120),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)))
    }

    /// All kinds this build serves.
    public static let standard = JobKindCatalog(diagnostics + products)
}
