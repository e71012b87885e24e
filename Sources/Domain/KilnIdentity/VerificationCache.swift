import Crypto
import Foundation
import Locking

/// Successful verifications, so that a credential an app sends with every request costs one signature check. Keyed by
/// a SHA-256 of the tenant, the mode and the credential, never the credential itself; each entry is kept until the
/// credential expires (a JWT's `exp`, a subscription's end, when the tier it gave would change) or `maxAge` has passed,
/// whichever is first. Refusals are not kept: a credential may be refused for a moment (a clock, a key rotating in).
public final class VerificationCache: Sendable {
    private struct Entry: Sendable {
        let identity: VerifiedIdentity
        let until: Date
    }

    /// The most entries held at once; past it, expired entries go first, then those that would expire soonest.
    public let capacity: Int
    /// The longest an entry is kept, even for a credential that does not expire.
    public let maxAge: Duration
    private let entries = Locked<[SHA256.Digest: Entry]>([:])

    public init(capacity: Int = 10_000, maxAge: Duration = .seconds(15 * 60)) {
        self.capacity = max(1, capacity)
        self.maxAge = maxAge
    }

    /// How many verifications are held.
    public var count: Int { entries.withLock { $0.count } }

    /// The cache key of a credential presented to a tenant.
    static func key(tenant: String, credential: String, mode: String) -> SHA256.Digest {
        var hash = SHA256()
        // Lengths first, so that no two different triples hash the same bytes.
        for part in [tenant, mode, credential] {
            hash.update(data: Data("\(part.utf8.count):".utf8))
            hash.update(data: Data(part.utf8))
        }
        return hash.finalize()
    }

    func identity(for key: SHA256.Digest, at now: Date) -> VerifiedIdentity? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard entry.until > now else {
                entries[key] = nil
                return nil
            }
            return entry.identity
        }
    }

    /// Keeps `identity` until `expiry`, or `maxAge` from `now` if that comes first.
    func insert(_ identity: VerifiedIdentity, for key: SHA256.Digest, expiry: Date?, at now: Date) {
        let latest = now.addingTimeInterval(maxAge.timeInterval)
        let until = min(expiry ?? latest, latest)
        guard until > now else { return }
        entries.withLock { entries in
            if entries[key] == nil, entries.count >= capacity {
                entries = entries.filter { $0.value.until > now }
                if entries.count >= capacity, let soonest = entries.min(by: { $0.value.until < $1.value.until }) {
                    entries[soonest.key] = nil
                }
            }
            entries[key] = Entry(identity: identity, until: until)
        }
    }
}
