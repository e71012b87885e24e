public import KilnProviders
public import KilnStore
public import KilnWorker

extension HandlerRegistry {
    /// The diagnostic kinds' handlers and the kinds that call providers through `routing`.
    public static func withProviders(routing: TextRouting, usage: ProviderUsageStore) -> HandlerRegistry {
        var registry = HandlerRegistry.diagnostics
        registry.register("diag.generate", GenerateHandler(routing: routing, usage: usage))
        return registry
    }
}
