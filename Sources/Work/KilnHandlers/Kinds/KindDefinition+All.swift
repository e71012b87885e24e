import ChatTaleInputs
import DocumentInputs
public import KilnCore
import KilnWorker
import TalevoniaInputs
import VeramoInputs

extension KindDefinition {
    /// Every kind Kiln serves, each defined here once.
    public static let all: [KindDefinition] = diagnostics + products

    /// What the API admits: every kind of ``all``.
    public static let catalog = JobKindCatalog(all.map(\.kind))

    /// The diagnostic kinds used by tests and benchmarks; tenants enable them explicitly.
    static let diagnostics: [KindDefinition] = [
        KindDefinition(
            JobKind(
                name: "diag.echo", input: EchoInput.self, jobClass: .io, timeout: .seconds(30), retry: .exponentialJitter(maxAttempts: 3),
                isDiagnostic: true)
        ) { _ in EchoHandler() },
        KindDefinition(
            JobKind(
                name: "diag.sleep", input: SleepInput.self, jobClass: .io, timeout: .seconds(3700), retry: .exponentialJitter(maxAttempts: 3),
                isDiagnostic: true)
        ) { _ in SleepHandler() },
        KindDefinition(
            JobKind(
                name: "diag.fail", input: FailInput.self, jobClass: .io, timeout: .seconds(30),
                retry: .exponentialJitter(maxAttempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(5)), isDiagnostic: true)
        ) { _ in FailHandler() },
        KindDefinition(
            JobKind(
                name: "diag.generate", input: GenerateInput.self, jobClass: .io, timeout: .seconds(300),
                retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)), isDiagnostic: true)
        ) { dependencies throws(MissingDependency) in GenerateHandler(generator: try dependencies.textGenerator()) },
    ]

    /// The apps' kinds.
    static let products: [KindDefinition] = [
        // Rendering takes seconds of both cores per minute of video; a crash of the encoder is worth one more try.
        KindDefinition(
            JobKind(
                name: "video.chat_export", input: ChatExportInput.self, jobClass: .cpu, timeout: .seconds(900),
                retry: .exponentialJitter(maxAttempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(30)))
        ) { ChatExportHandler(policies: $0.policies) },
        // Documents: a 200-page PDF takes about two seconds; share pages store pictures and a card as well.
        document("document.export", input: DocumentExportInput.self) { dependencies throws(MissingDependency) in
            DocumentExportHandler(uploads: try dependencies.required(dependencies.uploads, "the upload store"))
        },
        document("share.card", input: ShareCardInput.self) { dependencies throws(MissingDependency) in
            ShareCardHandler(uploads: try dependencies.required(dependencies.uploads, "the upload store"), policies: dependencies.policies)
        },
        document("share.publish", input: SharePublishInput.self) { dependencies throws(MissingDependency) in
            SharePublishHandler(
                uploads: try dependencies.required(dependencies.uploads, "the upload store"),
                shares: try dependencies.required(dependencies.shares, "the share store"), policies: dependencies.policies,
                publicURL: try dependencies.required(dependencies.publicURL, "a public URL"))
        },
        // Text generation: one model call, one repair and one safer regeneration fit well inside two minutes.
        text("text.continue", TextContinueKind()),
        text("text.opening", TextOpeningKind()),
        text("chat.generate", ChatGenerateKind()),
        text("campaign.open", CampaignOpenKind()),
        text("campaign.turn", CampaignTurnKind()),
        text("story.from_drawings", DrawingStoryKind.fromDrawings, readsUploads: true),
        text("story.continue", DrawingStoryKind.continued, readsUploads: true),
        // Images: fal.ai's queue can take a minute under load, and an edit uploads its inputs first.
        image("image.generate", input: ImageGenerateInput.self),
        image("image.illustrate", input: IllustrateInput.self),
        image("image.cover", input: CoverInput.self),
    ]

    /// A kind that asks a text model for a structured answer: I/O-bound, retried like any provider call.
    private static func text<Kind: StructuredTextKind>(_ name: String, _ structured: Kind, readsUploads: Bool = false) -> KindDefinition {
        KindDefinition(
            JobKind(
                name: name, input: Kind.Input.self, jobClass: .io, timeout: .seconds(120),
                retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)))
        ) { dependencies throws(MissingDependency) in
            let uploads = readsUploads ? try dependencies.required(dependencies.uploads, "the upload store") : nil
            return StructuredTextHandler(structured, generator: try dependencies.textGenerator(), uploads: uploads)
        }
    }

    /// A kind that renders a document, card or page on the worker: CPU-bound, retried once after a crash.
    private static func document<Input: KindInput>(
        _ name: String, input: Input.Type, handler: @escaping @Sendable (HandlerDependencies) throws(MissingDependency) -> any JobHandler
    ) -> KindDefinition {
        KindDefinition(
            JobKind(
                name: name, input: input, jobClass: .cpu, timeout: .seconds(300),
                retry: .exponentialJitter(maxAttempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(30))),
            handler: handler)
    }

    /// A kind that asks an image model for one picture: I/O-bound, retried like any provider call.
    private static func image<Input: KindInput>(_ name: String, input: Input.Type) -> KindDefinition {
        KindDefinition(
            JobKind(
                name: name, input: input, jobClass: .io, timeout: .seconds(300),
                retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(2), maxDelay: .seconds(60)))
        ) { dependencies throws(MissingDependency) in
            ImageHandler(
                routing: try dependencies.required(dependencies.images, "image routes"),
                uploads: try dependencies.required(dependencies.uploads, "the upload store"),
                usage: try dependencies.required(dependencies.usage, "a provider usage store"), safety: dependencies.safety,
                policies: dependencies.policies)
        }
    }
}
