/// Where the keys that sign a tenant's JWTs come from. Never the secret itself: the policy file is checked in.
public enum JWTKeySource: Sendable, Hashable {
    /// An HS256 secret, read from the environment variable the reference names.
    case hs256SecretVariable(PolicyReference)
    /// RS256 and ES256 public keys, from the JSON Web Key Set file the reference names.
    case jwksFile(PolicyReference)
}
