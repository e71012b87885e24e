import Foundation
import HTTPTypes
import Hummingbird
import KilnCore
import KilnStore
import Synchronization

/// Checks API keys against PostgreSQL, caching each verdict for a short while so the hot path stays off the
/// database. Until verified identities land, the end user, their device and their tier come from the `Kiln-Identity`,
/// `Kiln-Device` and `Kiln-Tier` headers, which the tenant's key vouches for (the trusted-server mode).
final class Authenticator: Sendable {
    private let keys: APIKeyStore
    private let cacheTTL: Duration
    private let cache = Mutex<[String: (tenant: Tenant?, until: ContinuousClock.Instant)]>([:])

    init(keys: APIKeyStore, cacheTTL: Duration) {
        self.keys = keys
        self.cacheTTL = cacheTTL
    }

    func caller(of request: Request) async throws -> Caller {
        let tenant = try await tenant(of: request)
        guard let header = request.headers[.kilnIdentity] else {
            throw Problem(.badRequest, "identity_required", "send the end user's identity in the Kiln-Identity header")
        }
        guard let identity = Identity(validating: header) else {
            throw Problem(.badRequest, "invalid_identity", "Kiln-Identity must be 1–128 printable characters without spaces")
        }
        var caller = Caller(tenant: tenant, identity: identity)
        if let device = request.headers[.kilnDevice] {
            // A device id follows the same rules as an identity: it names Redis keys too.
            guard Identity(validating: device) != nil else {
                throw Problem(.badRequest, "invalid_device", "Kiln-Device must be 1–128 printable characters without spaces")
            }
            caller.device = device
        }
        caller.assertedTier = request.headers[.kilnTier]
        return caller
    }

    func tenant(of request: Request) async throws -> Tenant {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            case let key = String(authorization.dropFirst("Bearer ".count)), !key.isEmpty
        else {
            throw Problem(.unauthorized, "missing_api_key", "send the tenant's API key as 'Authorization: Bearer <key>'")
        }
        let hash = APIKey.hash(key)
        let now = ContinuousClock.now
        if let cached = cache.withLock({ $0[hash] }), cached.until > now {
            guard let tenant = cached.tenant else { throw Self.invalidKey }
            return tenant
        }
        let tenant = try await keys.authenticate(key: key)
        cache.withLock { cache in
            if cache.count > 10_000 { cache.removeAll() }
            cache[hash] = (tenant, now + cacheTTL)
        }
        guard let tenant else { throw Self.invalidKey }
        return tenant
    }

    private static let invalidKey = Problem(.unauthorized, "invalid_api_key", "the API key is unknown or revoked")
}

extension HTTPField.Name {
    // The literal is a valid field name, so the initialiser cannot fail.
    static let kilnIdentity = HTTPField.Name("Kiln-Identity")!
    static let kilnDevice = HTTPField.Name("Kiln-Device")!
    static let kilnTier = HTTPField.Name("Kiln-Tier")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
