import HTTPTypes
import Hummingbird
import KilnCore
import KilnPrivacy
import KilnStore

/// `DELETE /v1/identity`: the caller erases everything Kiln holds of it (docs/privacy.md). The caller proves who it
/// is as for any other request (its tenant's key and its own credential), so only an identity itself, or the
/// tenant's server speaking for it (`Kiln-Identity`), can ask.
struct IdentityRoutes<Context: CallerRequestContext> {
    let dependencies: APIDependencies
    let configuration: APIConfiguration

    /// - Parameter v1: the authenticated `/v1` group.
    func register(on v1: some RouterMethods<Context>) {
        v1.delete("identity", use: erase)
    }

    /// `200` once nothing is left; `202` with `Retry-After` while some of the identity's jobs were still running
    /// (they have been told to stop, within a second): the app sends the same request again. The API never waits
    /// on a job, so it does not wait for them. `429` with `Retry-After` within ``APIConfiguration/erasureQuietPeriod``
    /// of a completed erasure, and past the tenant's ``APIConfiguration/erasuresPerTenantPerMinute``: a walk of every
    /// key in Redis is never anyone's to repeat at will.
    @Sendable func erase(_ request: Request, context: Context) async throws -> Response {
        let caller = try context.requireCaller()
        let limits = dependencies.erasureLimits
        if let wait = try await limits.admit(
            identity: caller.identity, tenant: caller.tenant.id, perTenantPerMinute: configuration.erasuresPerTenantPerMinute)
        {
            var problem = Problem(.tooManyRequests, "erasure_rate_limited", "erasure was asked for too often; nothing of the identity changed")
            problem.headers[.retryAfter] = String(max(Int((wait.milliseconds + 999) / 1000), 1))
            throw problem
        }
        let erasure = try await dependencies.eraser.erase(identity: caller.identity, tenant: caller.tenant.id)
        let answer = ErasureAnswer(erasure)
        guard erasure.isComplete else { return try .json(answer, status: .accepted, headers: [.retryAfter: "1"]) }
        try await limits.completed(identity: caller.identity, tenant: caller.tenant.id, quiet: configuration.erasureQuietPeriod)
        return try .json(answer, status: .ok)
    }
}
