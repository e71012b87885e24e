/// What a test waits for, polled on the clock: the suites share two cores, and a loaded machine can hold a test's
/// task, a server or a worker for seconds, so a wait is bounded by a minute, never by a count of tries.
enum Eventually {
    /// `body`'s value once it is not nil, asked every `interval` for up to `limit`; nil when it never was.
    static func value<T>(
        within limit: Duration = .seconds(60), every interval: Duration = .milliseconds(50), _ body: () async throws -> T?
    ) async throws -> T? {
        let deadline = ContinuousClock.now + limit
        while true {
            if let value = try await body() { return value }
            guard ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: interval)
        }
    }

    /// Whether `condition` came to hold, asked every `interval` for up to `limit`.
    static func holds(
        within limit: Duration = .seconds(60), every interval: Duration = .milliseconds(50), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        try await value(within: limit, every: interval) { try await condition() ? true : nil } ?? false
    }
}
