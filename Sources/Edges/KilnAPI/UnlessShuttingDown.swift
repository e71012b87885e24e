import ServiceLifecycle

/// Waits for `wait`'s answer unless the node begins to shut down gracefully, and then answers nil at once: how the
/// node's event streams wait for what comes next. A stopping node (a deploy, a scale-in) so ends them cleanly, and
/// their clients resume after the last event they read (`Last-Event-ID`) on another node, instead of the node waiting
/// for jobs that may run for minutes, to be killed at the end of its stop timeout with every request it still held.
func unlessShuttingDown<T: Sendable>(_ wait: @escaping @Sendable () async throws -> T) async throws -> T? {
    do {
        return try await cancelWhenGracefulShutdown(wait)
    } catch  where Task.isShuttingDownGracefully {
        return nil
    }
}
