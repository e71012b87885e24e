import Foundation
import HTTPTypes
import Hummingbird
import KilnAdmission
import KilnCore
import KilnIdentity
import KilnPolicy
import KilnStore
import ServiceFailures
import Locking

/// Checks API keys against PostgreSQL, caching each verdict for a short while so the hot path stays off the
/// database (and past it, while PostgreSQL is out of reach: a revocation takes effect once it answers again), then
/// establishes the end user before anything touches Redis. A tenant with a policy identifies its users
/// with the identity modes its policy accepts, each verified by `KilnIdentity`; a tenant without one (operators' test
/// and benchmark tenants) takes the `Kiln-Identity` header that its key vouches for. Tier names become the tenant's
/// `Tier`s here, where they are read: an unknown `Kiln-Tier` is refused before any route runs.
final class Authenticator: Sendable {
    private let keys: any TenantKeys
    private let cacheTTL: Duration
    private let policies: PolicySet
    private let identities: IdentityVerifierSet
    private let clock: @Sendable () -> Date
    private let cache = Locked<[String: (tenant: Tenant?, until: ContinuousClock.Instant)]>([:])

    init(keys: any TenantKeys, cacheTTL: Duration, policies: PolicySet, identities: IdentityVerifierSet, clock: @escaping @Sendable () -> Date) {
        self.keys = keys
        self.cacheTTL = cacheTTL
        self.policies = policies
        self.identities = identities
        self.clock = clock
    }

    func caller(of request: Request) async throws -> Caller {
        let headers = CallerHeaders(request.headers)
        let tenant = try await tenant(authorization: headers.authorization)
        let device = try Self.device(headers.device)
        var caller: Caller
        let credentials = headers.credentials
        try Self.refuseSeveral(credentials)
        if policies[tenant.id] == nil {
            guard let header = headers.identity else {
                throw Problem(.badRequest, "identity_required", "send the end user's identity in the Kiln-Identity header")
            }
            // Its jobs are not metered, so a tier it asserts decides nothing.
            caller = Caller(tenant: tenant, identity: try Self.vouchedIdentity(header))
        } else {
            guard let verifier = identities[tenant.id] else {
                throw Problem(.internalServerError, "identity_not_configured", "this tenant's identity modes are not set up on this node")
            }
            let verified: VerifiedIdentity
            do {
                verified = try await verifier.verify(try Self.credential(credentials.first, tier: headers.tier, device: device), now: clock())
            } catch let error as IdentityError {
                throw Problem(.unauthorized, error.code, error.message)
            }
            caller = Caller(tenant: tenant, identity: verified.identity)
            // A purchase's tier yields to an entitlement on record (a refund notified since); a trusted server's or an
            // anonymous device's is final.
            let established = try verified.tierName.flatMap { name in try tier(named: name, of: tenant.id) }
            if verified.mode == .appStore { caller.purchasedTier = established } else { caller.assertedTier = established }
        }
        caller.device = device
        return caller
    }

    /// The tenant's tier of this name. A name the tenant's server asserts must be one of the tenant's tiers; the others
    /// (a purchase's, a device's) came from the policy itself.
    private func tier(named name: String, of tenant: TenantID) throws -> Tier? {
        do {
            return try Admission(policies: policies).assertedTier(named: name, tenant: tenant)
        } catch {
            throw Problem(error)
        }
    }

    /// Refuses a request with more than one credential, whatever the tenant accepts: a tenant without a policy reads
    /// `Kiln-Identity` only, and the other credential would otherwise be ignored without a word.
    private static func refuseSeveral(_ credentials: [CallerHeaders.PresentedCredential]) throws {
        guard credentials.count <= 1 else {
            let names = credentials.map(\.header.rawName).joined(separator: ", ")
            throw Problem(.badRequest, "ambiguous_identity", "send one identity credential, not several: \(names)")
        }
    }

    /// What to verify: the request's one credential (``refuseSeveral(_:)`` has refused several), or `Kiln-Device` alone
    /// as an anonymous device. `tier` is what `Kiln-Tier` asserts.
    private static func credential(_ presented: CallerHeaders.PresentedCredential?, tier: String?, device: String?) throws -> Credential {
        let credential: Credential
        switch presented {
        case .appStoreTransaction(let jws)?: credential = .appStoreTransaction(jws)
        case .appTransaction(let jws)?: credential = .appTransaction(jws)
        case .userToken(let token)?: credential = .userToken(token)
        case .identity(let identity)?: credential = .trustedServer(identity: try vouchedIdentity(identity).rawValue, tier: tier)
        case nil:
            guard let device else {
                throw Problem(
                    .badRequest, "identity_required",
                    "send the end user's credential: Kiln-App-Store-Transaction, Kiln-App-Transaction, Kiln-User-Token, Kiln-Identity or Kiln-Device")
            }
            credential = .anonymousDevice(device)
        }
        // Only the tenant's backend may say which tier a user has; every other mode's tier comes from what it verifies.
        if tier != nil, credential.mode != .trustedServer {
            throw Problem(.badRequest, "tier_not_assertable", "Kiln-Tier goes with Kiln-Identity (trusted_server) only")
        }
        return credential
    }

    private static func vouchedIdentity(_ header: String) throws -> Identity {
        guard let identity = Identity(validating: header) else {
            throw Problem(.badRequest, "invalid_identity", "Kiln-Identity must be 1–128 printable characters without spaces")
        }
        return identity
    }

    private static func device(_ header: String?) throws -> String? {
        guard let device = header else { return nil }
        // A device id follows the same rules as an identity: it names Redis keys too.
        guard Identity(validating: device) != nil else {
            throw Problem(.badRequest, "invalid_device", "Kiln-Device must be 1–128 printable characters without spaces")
        }
        return device
    }

    private func tenant(authorization: String?) async throws -> Tenant {
        guard let authorization, authorization.hasPrefix("Bearer "),
            case let key = String(authorization.dropFirst("Bearer ".count)), !key.isEmpty
        else {
            throw Problem(.unauthorized, "missing_api_key", "send the tenant's API key as 'Authorization: Bearer <key>'")
        }
        let hash = APIKey.hash(key)
        let now = ContinuousClock.now
        let cached = cache.withLock { $0[hash] }
        if let cached, cached.until > now {
            guard let tenant = cached.tenant else { throw Self.invalidKey }
            return tenant
        }
        let tenant: Tenant?
        do {
            tenant = try await keys.authenticate(key: key)
        } catch let error as any BackingServiceError where error.isUnavailable {
            // PostgreSQL is out of reach: the last verdict on this key stands until it answers again, so intake, which
            // needs only Redis, goes on. A key never seen before cannot be checked: 503.
            guard let cached else { throw error }
            guard let tenant = cached.tenant else { throw Self.invalidKey }
            return tenant
        }
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
    // The literals are valid field names, so the initialisers cannot fail.
    static let kilnIdentity = HTTPField.Name("Kiln-Identity")!
    static let kilnDevice = HTTPField.Name("Kiln-Device")!
    static let kilnTier = HTTPField.Name("Kiln-Tier")!
    static let kilnAppStoreTransaction = HTTPField.Name("Kiln-App-Store-Transaction")!
    static let kilnAppTransaction = HTTPField.Name("Kiln-App-Transaction")!
    static let kilnUserToken = HTTPField.Name("Kiln-User-Token")!
    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let lastEventID = HTTPField.Name("Last-Event-ID")!
}
