public import Foundation
import KilnCore
public import KilnPolicy

/// One tenant's identity modes: takes what an app presents and says who its user is and which tier they have, before
/// anything touches Redis. Credentials that cost a signature check are verified once and then served from the cache.
public struct IdentityVerifier: Sendable {
    public let policy: TenantPolicy
    /// Verifies App Store credentials and notifications; nil when the tenant has no App Store settings.
    public let appStore: AppStoreVerifier?
    private let userTokens: UserTokenVerifier?
    private let mcpTokens: UserTokenVerifier?
    private let cache: VerificationCache

    /// - Parameters:
    ///   - appStore: verifies App Store credentials; needed when the policy accepts `app_store`.
    ///   - userTokens: verifies JWTs; needed when the policy accepts `jwt`.
    ///   - mcpTokens: verifies the JWTs issued for the tenant's MCP endpoint; needed when the policy has one.
    public init(
        policy: TenantPolicy, appStore: AppStoreVerifier? = nil, userTokens: UserTokenVerifier? = nil, mcpTokens: UserTokenVerifier? = nil,
        cache: VerificationCache = VerificationCache()
    ) {
        self.policy = policy
        self.appStore = appStore
        self.userTokens = userTokens
        self.mcpTokens = mcpTokens
        self.cache = cache
    }

    /// Who `credential` says the user is, and their tier, at `now`.
    /// - Throws: ``IdentityError``: the tenant does not accept the credential's mode, or it does not verify.
    public func verify(_ credential: Credential, now: Date) async throws -> VerifiedIdentity {
        guard policy.identityModes.contains(credential.mode) else {
            throw IdentityError.modeNotAccepted("this app does not accept \(credential.mode.rawValue) credentials")
        }
        switch credential {
        case .anonymousDevice(let device):
            // Nothing vouches for a device: always the lowest tier, whatever the identity's entitlements say.
            let identity = try Self.identity(IdentityNamespace.device.name(device))
            return VerifiedIdentity(mode: .anonymousDevice, identity: identity, tierName: policy.lowestTier.name)
        case .trustedServer(let identity, let tier):
            return VerifiedIdentity(mode: .trustedServer, identity: try Self.identity(identity), tierName: tier)
        case .appStoreTransaction(let jws):
            return try await cached(jws, kind: "transaction", now: now) { try await verifyTransaction(jws, now: now) }
        case .appTransaction(let jws):
            return try await cached(jws, kind: "app_transaction", now: now) { try await verifyAppTransaction(jws, now: now) }
        case .userToken(let token):
            return try await cached(token, kind: "user_token", now: now) { try await verifyUserToken(token, now: now) }
        }
    }

    private func cached(
        _ token: String, kind: String, now: Date, verify: () async throws -> (identity: VerifiedIdentity, expiry: Date?)
    ) async throws -> VerifiedIdentity {
        let key = VerificationCache.key(tenant: policy.tenant.rawValue, credential: token, mode: kind)
        if let identity = cache.identity(for: key, at: now) { return identity }
        let verified = try await verify()
        cache.insert(verified.identity, for: key, expiry: verified.expiry, at: now)
        return verified.identity
    }

    private func verifyTransaction(_ jws: String, now: Date) async throws -> (identity: VerifiedIdentity, expiry: Date?) {
        guard let appStore else { throw IdentityError.modeNotAccepted("App Store verification is not configured for this app") }
        let transaction = try await appStore.verifyTransaction(jws, now: now)
        // Revoked, expired or upgraded: still this user, downgraded rather than refused. A product the tenant does not
        // sell grants nothing either.
        let tier = transaction.entitledProduct(at: now).flatMap { policy.tier(forProduct: $0) }
        let buyer = try Self.identity(IdentityNamespace.appStoreTransaction.name(transaction.originalTransactionID))
        let identity = VerifiedIdentity(mode: .appStore, identity: buyer, tierName: tier?.name)
        // The tier lasts until the subscription ends; the same transaction then gives the lowest tier.
        return (identity, tier == nil ? nil : transaction.expiresDate)
    }

    private func verifyAppTransaction(_ jws: String, now: Date) async throws -> (identity: VerifiedIdentity, expiry: Date?) {
        guard let appStore else { throw IdentityError.modeNotAccepted("App Store verification is not configured for this app") }
        let appTransaction = try await appStore.verifyAppTransaction(jws, now: now)
        // Having the app buys nothing: the tier is left to the identity's entitlements.
        let account = try Self.identity(IdentityNamespace.appTransaction.name(appTransaction.appTransactionID))
        return (VerifiedIdentity(mode: .appStore, identity: account, tierName: nil), nil)
    }

    /// Who the bearer token of a request to the tenant's MCP endpoint says the user is: a JWT of the tenant's sign-in
    /// issued for the endpoint, whose user is the same identity as in the `jwt` mode.
    /// - Throws: ``IdentityError``; `modeNotAccepted` when the tenant has no MCP endpoint.
    public func verifyMCPToken(_ token: String, now: Date) async throws -> VerifiedIdentity {
        guard let mcpTokens else { throw IdentityError.modeNotAccepted("this app has no MCP endpoint") }
        return try await cached(token, kind: "mcp_token", now: now) { try await verifyUserToken(token, with: mcpTokens, now: now) }
    }

    private func verifyUserToken(_ token: String, now: Date) async throws -> (identity: VerifiedIdentity, expiry: Date?) {
        guard let userTokens else { throw IdentityError.modeNotAccepted("JWT verification is not configured for this app") }
        return try await verifyUserToken(token, with: userTokens, now: now)
    }

    // Never inlined: Swift 6.3.1's optimizer crashes (signal 11, splitting `verify(_:now:)`'s coroutine) when it inlines
    // this into the callers' closures in a release build.
    @inline(never)
    private func verifyUserToken(
        _ token: String, with verifier: UserTokenVerifier, now: Date
    ) async throws -> (
        identity: VerifiedIdentity, expiry: Date?
    ) {
        let userToken = try await verifier.verify(token, now: now)
        // Escaped when it starts with another namespace's prefix: a `sub` of `ot:…` is never that App Store user.
        let identity = try Self.identity(IdentityNamespace.userName(userToken.subject))
        return (VerifiedIdentity(mode: .jwt, identity: identity, tierName: nil), userToken.expiresAt)
    }

    private static func identity(_ name: String) throws(IdentityError) -> Identity {
        guard let identity = Identity(validating: name) else {
            throw .invalidIdentity("an identity must be 1–128 printable characters without spaces, its prefix included")
        }
        return identity
    }
}
