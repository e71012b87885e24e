/// A wait a provider's answer asks for (`retry-after`, Gemini's `retryDelay`, a rate limit's reset), as a `Duration`
/// Kiln can act on. An answer may say anything, and `Duration` traps on what it cannot hold: a wait that is negative
/// or infinite is no wait, and one longer than ``longest`` is that.
enum ProviderWait {
    /// A day: longer than any job's deadline, so a job told to wait that long fails instead of waiting.
    static let longest: Duration = .seconds(86_400)

    /// In milliseconds, the unit every provider's fractions come out exact in (`retry-after-ms: 1500`, `20ms`, `1.5s`).
    static func milliseconds(_ milliseconds: Double) -> Duration? {
        guard milliseconds.isFinite, milliseconds >= 0 else { return nil }
        return milliseconds >= 86_400_000 ? longest : .milliseconds(milliseconds)
    }
}
