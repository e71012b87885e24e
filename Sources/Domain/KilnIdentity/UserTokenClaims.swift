import JWTKit

/// The registered claims of a user token that Kiln checks. `aud` may be a string or an array of them.
struct UserTokenClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var iss: IssuerClaim?
    var aud: AudienceClaim?

    /// Nothing to check here: ``UserTokenVerifier`` checks the claims against its settings and the caller's clock.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
