import Foundation
import KilnCore
import Locking

/// Keys just created, held for the one page that shows them (post, redirect, get): the action that creates a key
/// redirects to its tenant's page with a one-time ticket, so reloading that page neither creates another key nor shows
/// this one again. A ticket works once, for the session that created the key, within five minutes; the console's
/// memory holds at most a hundred keys not yet shown, and they are never stored anywhere else.
final class NewKeys: Sendable {
    private struct Held {
        let key: String
        let session: String
        let until: ContinuousClock.Instant
    }

    private let held = Locked<[String: Held]>([:])

    static let lifetime: Duration = .seconds(300)
    static let most = 100

    /// Holds `key` for `session`'s next page. - Returns: the ticket that page takes it with.
    func hold(_ key: String, for session: SignedIn) -> String {
        let ticket = RandomSecret.hex(byteCount: 16)
        let now = ContinuousClock.now
        held.withLock { held in
            held = held.filter { $0.value.until > now }
            if held.count >= Self.most, let oldest = held.min(by: { $0.value.until < $1.value.until }) { held[oldest.key] = nil }
            held[ticket] = Held(key: key, session: SessionSecret.derive(session.secret, purpose: "new-key"), until: now + Self.lifetime)
        }
        return ticket
    }

    /// The key `ticket` holds for `session`, once; nil for a ticket used, expired or another session's.
    func take(_ ticket: String, for session: SignedIn) -> String? {
        held.withLock { held in
            guard let found = held[ticket], found.until > .now,
                SessionSecret.matches(found.session, SessionSecret.derive(session.secret, purpose: "new-key"))
            else { return nil }
            held[ticket] = nil
            return found.key
        }
    }
}
