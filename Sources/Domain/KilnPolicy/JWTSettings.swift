/// How a tenant's JWTs are verified (`jwt` in the policy file): who must have issued them, for whom, and with which
/// keys. The identity is the token's `sub`.
public struct JWTSettings: Sendable, Equatable {
    /// The `iss` a token must carry, e.g. `https://securetoken.google.com/<project>` for Firebase.
    public let issuer: String
    /// The value `aud` must hold, e.g. the Firebase project id, or `authenticated` for Supabase.
    public let audience: String
    public let keys: JWTKeySource
}

extension JWTSettings {
    /// `{"issuer": "…", "audience": "…", "hs256_secret_env": "JOANIE_JWT_SECRET"}`, or `"jwks_file": "…"` instead of
    /// the secret.
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["issuer", "audience", "hs256_secret_env", "jwks_file"])
        let keys: JWTKeySource
        switch (object.optional("hs256_secret_env"), object.optional("jwks_file")) {
        case (let variableField?, nil):
            let name = try variableField.string()
            guard Self.isEnvironmentVariableName(name) else {
                throw variableField.failure("expected the name of an environment variable (A-Z, a-z, 0-9 and _), not the secret itself")
            }
            keys = .hs256SecretVariable(PolicyReference(name, at: variableField))
        case (nil, let fileField?):
            keys = .jwksFile(PolicyReference(try fileField.string(), at: fileField))
        case (.some, .some):
            throw field.failure("give hs256_secret_env or jwks_file, not both")
        case (nil, nil):
            throw field.failure("required: hs256_secret_env (an HS256 secret) or jwks_file (RS256 and ES256 keys)")
        }
        self.init(issuer: try object.required("issuer").string(), audience: try object.required("audience").string(), keys: keys)
    }

    private static func isEnvironmentVariableName(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(0x30...0x39).contains(first) else { return false }
        return name.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}
