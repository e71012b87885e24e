import Foundation
import Locking

/// The live pages this API node served in the last `ttl`: a link shared widely is answered from memory, not from
/// PostgreSQL. A page never outlives its expiry here; a revocation through this node takes effect at once (the slug is
/// forgotten, and a read that raced it cannot put the page back for `ttl`), one through another node within `ttl`.
final class SharePageCache: Sendable {
    /// The most page bytes held; past it, stale pages go first, and everything when that is not enough.
    static let capacityBytes = 64 * 1024 * 1024

    private struct State {
        var pages: [String: (html: String, expiresAt: Date, until: ContinuousClock.Instant)] = [:]
        var bytes = 0
        /// Slugs revoked through this node, until when no page may be stored for them.
        var forgotten: [String: ContinuousClock.Instant] = [:]

        mutating func remove(_ slug: String) {
            if let page = pages.removeValue(forKey: slug) { bytes -= page.html.utf8.count }
        }
    }

    private let ttl: Duration
    private let state = Locked(State())

    /// - Parameter ttl: how long a page is served from memory; zero keeps nothing.
    init(ttl: Duration) {
        self.ttl = ttl
    }

    /// The page at `slug`, when one read less than `ttl` ago is still before its expiry.
    func page(_ slug: String) -> String? {
        let now = ContinuousClock.now
        return state.withLock { state in
            guard let page = state.pages[slug] else { return nil }
            guard page.until > now, page.expiresAt > Date() else {
                state.remove(slug)
                return nil
            }
            return page.html
        }
    }

    func store(_ slug: String, html: String, expiresAt: Date) {
        let size = html.utf8.count
        guard ttl > .zero, size <= Self.capacityBytes else { return }
        let now = ContinuousClock.now
        state.withLock { state in
            if let until = state.forgotten[slug], until > now { return }
            if state.bytes + size > Self.capacityBytes {
                for (stale, page) in state.pages where page.until <= now { state.remove(stale) }
                state.forgotten = state.forgotten.filter { $0.value > now }
                if state.bytes + size > Self.capacityBytes {
                    state.pages.removeAll()
                    state.bytes = 0
                }
            }
            state.remove(slug)
            state.pages[slug] = (html, expiresAt, now + ttl)
            state.bytes += size
        }
    }

    /// Drops `slug`'s page and keeps it out for `ttl`: it is being revoked.
    func forget(_ slug: String) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.remove(slug)
            if state.forgotten.count >= 1_000 { state.forgotten = state.forgotten.filter { $0.value > now } }
            state.forgotten[slug] = now + ttl
        }
    }
}
