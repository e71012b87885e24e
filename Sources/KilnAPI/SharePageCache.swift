import Foundation
import Synchronization

/// The live pages this API node served in the last `ttl`: a link shared widely is answered from memory, not from
/// PostgreSQL, while a revocation through this node takes effect at once and one through another node within `ttl`
/// (browsers may keep a page a minute anyway: its `Cache-Control`). A page never outlives its expiry here.
final class SharePageCache: Sendable {
    /// Pages held at most; when full, the cache starts again empty (a rare event that costs one query per page).
    static let capacity = 10_000
    private let ttl: Duration
    private let entries = Mutex<[String: (html: String, expiresAt: Date, until: ContinuousClock.Instant)]>([:])

    /// - Parameter ttl: how long a page is served from memory; zero keeps nothing.
    init(ttl: Duration) {
        self.ttl = ttl
    }

    /// The page at `slug`, when one fetched less than `ttl` ago is still before its expiry.
    func page(_ slug: String) -> String? {
        let now = ContinuousClock.now
        return entries.withLock { entries in
            guard let entry = entries[slug] else { return nil }
            guard entry.until > now, entry.expiresAt > Date() else {
                entries[slug] = nil
                return nil
            }
            return entry.html
        }
    }

    func store(_ slug: String, html: String, expiresAt: Date) {
        guard ttl > .zero else { return }
        let until = ContinuousClock.now + ttl
        entries.withLock { entries in
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[slug] = (html, expiresAt, until)
        }
    }

    /// Drops `slug`'s page: it was revoked.
    func forget(_ slug: String) {
        _ = entries.withLock { $0.removeValue(forKey: slug) }
    }
}
