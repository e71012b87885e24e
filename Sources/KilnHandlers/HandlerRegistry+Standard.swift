public import KilnProviders
public import KilnStore
public import KilnWorker

extension HandlerRegistry {
    /// The diagnostic kinds' handlers and the kinds that call providers through `routing`, judged by `safety`.
    public static func withProviders(routing: TextRouting, usage: ProviderUsageStore, safety: ContentSafety?) -> HandlerRegistry {
        var registry = HandlerRegistry.diagnostics
        registry.register("diag.generate", GenerateHandler(routing: routing, usage: usage, safety: safety))
        return registry
    }
}
