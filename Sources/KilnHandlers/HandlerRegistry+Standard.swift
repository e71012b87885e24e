public import KilnPolicy
public import KilnProviders
public import KilnStore
public import KilnWorker

extension HandlerRegistry {
    /// Every kind's handler: the diagnostic kinds, those that call providers through `routing` (judged by `safety`),
    /// and the rendering kinds, whose output depends on the submitter's tier in `policies`.
    public static func standard(routing: TextRouting, usage: ProviderUsageStore, safety: ContentSafety?, policies: PolicySet) -> HandlerRegistry {
        var registry = HandlerRegistry.diagnostics
        registry.register("diag.generate", GenerateHandler(routing: routing, usage: usage, safety: safety))
        registry.register("video.chat_export", ChatExportHandler(policies: policies))
        return registry
    }
}
