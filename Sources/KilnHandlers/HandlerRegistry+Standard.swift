public import KilnPolicy
public import KilnProviders
public import KilnStore
public import KilnWorker

extension HandlerRegistry {
    /// Every kind's handler: the diagnostic kinds, those that call text providers through `routing` (judged by
    /// `safety`), the image kinds when `images` and `uploads` are given, Joanie's story kinds (which read drawings)
    /// and the document kinds when `uploads` is, `share.publish` when `shares` and `publicURL` are too, and the video
    /// kind; the image and rendering kinds' output depends on the submitter's tier in `policies`.
    public static func standard(
        routing: TextRouting, usage: ProviderUsageStore, safety: ContentSafety?, policies: PolicySet, images: ImageRouting? = nil,
        uploads: UploadStore? = nil, shares: ShareStore? = nil, publicURL: String? = nil
    ) -> HandlerRegistry {
        var registry = HandlerRegistry.diagnostics
        registry.register("diag.generate", GenerateHandler(routing: routing, usage: usage, safety: safety))
        let generator = TextGenerator(routing: routing, usage: usage, safety: safety)
        registry.register("text.continue", StructuredTextHandler(TextContinueKind(), generator: generator))
        registry.register("text.opening", StructuredTextHandler(TextOpeningKind(), generator: generator))
        registry.register("chat.generate", StructuredTextHandler(ChatGenerateKind(), generator: generator))
        registry.register("campaign.open", StructuredTextHandler(CampaignOpenKind(), generator: generator))
        registry.register("campaign.turn", StructuredTextHandler(CampaignTurnKind(), generator: generator))
        registry.register("video.chat_export", ChatExportHandler(policies: policies))
        if let uploads {
            registry.register("story.from_drawings", StructuredTextHandler(DrawingStoryKind.fromDrawings, generator: generator, uploads: uploads))
            registry.register("story.continue", StructuredTextHandler(DrawingStoryKind.continued, generator: generator, uploads: uploads))
            registry.register("document.export", DocumentExportHandler(uploads: uploads))
            registry.register("share.card", ShareCardHandler(uploads: uploads, policies: policies))
            if let shares, let publicURL {
                registry.register("share.publish", SharePublishHandler(uploads: uploads, shares: shares, policies: policies, publicURL: publicURL))
            }
        }
        if let images, let uploads {
            let handler = ImageHandler(routing: images, uploads: uploads, usage: usage, safety: safety, policies: policies)
            for kind in ["image.generate", "image.illustrate", "image.cover"] { registry.register(kind, handler) }
        }
        return registry
    }
}
