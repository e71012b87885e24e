/// Why a credential was refused. `code` is stable and machine-readable (the API answers with it); `message` says what
/// was wrong without repeating the credential, so it is safe to log and to show the app.
public struct IdentityError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Reason: String, Sendable, CaseIterable {
        case malformedToken = "malformed_token"
        case unsupportedAlgorithm = "unsupported_algorithm"
        case invalidSignature = "invalid_signature"
        case untrustedChain = "untrusted_chain"
        case missingAppleOID = "missing_apple_oid"
        case wrongBundleID = "wrong_bundle_id"
        case wrongAppAppleID = "wrong_app_apple_id"
        case wrongEnvironment = "wrong_environment"
        case tokenExpired = "token_expired"
        case tokenNotYetValid = "token_not_yet_valid"
        case wrongAudience = "wrong_audience"
        case wrongIssuer = "wrong_issuer"
        case unknownKey = "unknown_key"
        case invalidIdentity = "invalid_identity"
        case modeNotAccepted = "identity_mode_not_accepted"
    }

    private let reason: Reason
    /// What was wrong, for people; never contains the credential.
    public let message: String

    private init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    /// The stable, machine-readable name of the reason, e.g. `untrusted_chain`.
    public var code: String { reason.rawValue }

    /// Every ``code`` a refusal can have (the API's documents list them all).
    public static let codes = Reason.allCases.map(\.rawValue)

    public var description: String { "\(code): \(message)" }

    /// Not a JWS: not three base64url parts, or a header or payload that is not the expected JSON.
    static func malformedToken(_ message: String) -> Self { Self(.malformedToken, message) }
    /// The header names an algorithm this credential may not use (App Store: only ES256).
    static func unsupportedAlgorithm(_ message: String) -> Self { Self(.unsupportedAlgorithm, message) }
    static func invalidSignature(_ message: String) -> Self { Self(.invalidSignature, message) }
    /// The `x5c` certificates do not chain to a configured root.
    static func untrustedChain(_ message: String) -> Self { Self(.untrustedChain, message) }
    /// The chain is trusted, but its intermediate or leaf lacks Apple's marker extension for App Store signing.
    static func missingAppleOID(_ message: String) -> Self { Self(.missingAppleOID, message) }
    static func wrongBundleID(_ message: String) -> Self { Self(.wrongBundleID, message) }
    static func wrongAppAppleID(_ message: String) -> Self { Self(.wrongAppAppleID, message) }
    /// Signed by the other App Store environment: a sandbox purchase offered to production, or the reverse.
    static func wrongEnvironment(_ message: String) -> Self { Self(.wrongEnvironment, message) }
    static func tokenExpired(_ message: String) -> Self { Self(.tokenExpired, message) }
    static func tokenNotYetValid(_ message: String) -> Self { Self(.tokenNotYetValid, message) }
    static func wrongAudience(_ message: String) -> Self { Self(.wrongAudience, message) }
    static func wrongIssuer(_ message: String) -> Self { Self(.wrongIssuer, message) }
    /// The token's `kid` names no key of the configured set (or it names none while the set needs one).
    static func unknownKey(_ message: String) -> Self { Self(.unknownKey, message) }
    /// The identity the credential carries cannot name an identity (empty, too long, unprintable).
    static func invalidIdentity(_ message: String) -> Self { Self(.invalidIdentity, message) }
    /// The tenant does not accept this kind of credential.
    static func modeNotAccepted(_ message: String) -> Self { Self(.modeNotAccepted, message) }
}
