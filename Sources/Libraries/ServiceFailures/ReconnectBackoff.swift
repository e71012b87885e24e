/// How long a client waits before trying to connect again after failed attempts in a row: 50 ms after the first,
/// doubling with each further failure, at most `maximum`. Calls made meanwhile fail at once as unavailable, so a dead
/// service costs a caller no wait and a recovered one is found within `maximum`.
public struct ReconnectBackoff: Sendable {
    public static let first: Duration = .milliseconds(50)

    public let maximum: Duration

    public init(maximum: Duration) {
        self.maximum = maximum
    }

    /// The wait after `failures` failed attempts in a row (1 or more).
    public func delay(afterFailures failures: Int) -> Duration {
        min(maximum, Self.first * (1 << min(max(failures, 1) - 1, 16)))
    }
}
