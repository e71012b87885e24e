import Locking

/// Failed sign-ins, counted per client address in this process: an address that failed ``perAddress`` times within
/// ``window`` is refused, without its token being checked, until the oldest of those failures is older than the window.
/// Once ``overall`` failures from any addresses fell within the window, an address that failed even once is refused
/// too, while one that has not (the operator who holds a token) is still let try. So no one is locked out for longer
/// than the window from an address of their own, and a flood costs the audit log a few rows per address, not one per
/// try. Tokens are 256 random bits: this keeps the log readable and the console responsive, not the tokens safe.
final class SignInThrottle: Sendable {
    private struct State {
        var failures: [String: [ContinuousClock.Instant]] = [:]
    }

    static let window: Duration = .seconds(600)
    static let perAddress = 5
    static let overall = 100

    private let state = Locked(State())

    /// How long `address` must wait before it may try, or nil when it may now.
    func wait(for address: String, now: ContinuousClock.Instant = .now) -> Duration? {
        state.withLock { state in
            Self.forgetOld(&state, now: now)
            guard let own = state.failures[address], let oldest = own.first else { return nil }
            let total = state.failures.values.reduce(0) { $0 + $1.count }
            guard own.count >= Self.perAddress || total >= Self.overall else { return nil }
            return oldest + Self.window - now
        }
    }

    /// Counts a failed sign-in from `address`. - Returns: whether it is the one that makes the address wait.
    @discardableResult
    func failed(_ address: String, now: ContinuousClock.Instant = .now) -> Bool {
        state.withLock { state in
            Self.forgetOld(&state, now: now)
            state.failures[address, default: []].append(now)
            return state.failures[address]?.count == Self.perAddress
        }
    }

    /// Forgets `address`'s failures: its operator signed in.
    func succeeded(_ address: String) {
        _ = state.withLock { $0.failures.removeValue(forKey: address) }
    }

    private static func forgetOld(_ state: inout State, now: ContinuousClock.Instant) {
        for (address, times) in state.failures {
            let kept = times.filter { now - $0 < window }
            state.failures[address] = kept.isEmpty ? nil : kept
        }
    }
}
