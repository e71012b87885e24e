import HTTPTypes

/// The headers that say who is calling, read in one pass over the request's fields. A lookup by name scans every
/// field and joins what it finds into a new string, and authentication needs seven names, some of them twice.
struct CallerHeaders {
    var authorization: String?
    var device: String?
    var appStoreTransaction: String?
    var appTransaction: String?
    var userToken: String?
    var identity: String?
    var tier: String?

    init(_ fields: HTTPFields) {
        for field in fields {
            switch field.name {
            case .authorization: Self.add(field.value, to: &authorization)
            case .kilnDevice: Self.add(field.value, to: &device)
            case .kilnAppStoreTransaction: Self.add(field.value, to: &appStoreTransaction)
            case .kilnAppTransaction: Self.add(field.value, to: &appTransaction)
            case .kilnUserToken: Self.add(field.value, to: &userToken)
            case .kilnIdentity: Self.add(field.value, to: &identity)
            case .kilnTier: Self.add(field.value, to: &tier)
            default: continue
            }
        }
    }

    /// An end user's credential as the request sends it, before it is verified.
    enum PresentedCredential {
        case appStoreTransaction(String)
        case appTransaction(String)
        case userToken(String)
        case identity(String)

        /// The header that carries it.
        var header: HTTPField.Name {
            switch self {
            case .appStoreTransaction: .kilnAppStoreTransaction
            case .appTransaction: .kilnAppTransaction
            case .userToken: .kilnUserToken
            case .identity: .kilnIdentity
            }
        }
    }

    /// The end user's credentials the request sends, in the order a refusal names them.
    var credentials: [PresentedCredential] {
        [
            appStoreTransaction.map(PresentedCredential.appStoreTransaction), appTransaction.map(PresentedCredential.appTransaction),
            userToken.map(PresentedCredential.userToken), identity.map(PresentedCredential.identity),
        ].compactMap { $0 }
    }

    /// A field sent more than once reads as `HTTPFields` reads it: its values joined with a comma.
    private static func add(_ value: String, to slot: inout String?) {
        slot = slot.map { $0 + ", " + value } ?? value
    }
}
