public import KilnCore

/// The handler of each kind a worker serves.
public struct HandlerRegistry: Sendable {
    private var handlers: [String: any JobHandler] = [:]

    public init() {}

    public mutating func register(_ kind: String, _ handler: any JobHandler) {
        handlers[kind] = handler
    }

    public subscript(kind: String) -> (any JobHandler)? { handlers[kind] }

    /// The diagnostic kinds' handlers.
    public static var diagnostics: HandlerRegistry {
        var registry = HandlerRegistry()
        registry.register("diag.echo", EchoHandler())
        registry.register("diag.sleep", SleepHandler())
        registry.register("diag.fail", FailHandler())
        return registry
    }
}
