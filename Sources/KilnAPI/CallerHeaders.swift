import HTTPTypes

/// The headers that say who is calling, read in one pass over the request's fields. A lookup by name scans every
/// field and joins what it finds into a new string, and authentication asked for seven names, some of them twice.
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

    /// The headers of the end user's credentials the request sends, in ``Authenticator``'s order of preference.
    var credentialNames: [HTTPField.Name] {
        [
            (HTTPField.Name.kilnAppStoreTransaction, appStoreTransaction), (.kilnAppTransaction, appTransaction),
            (.kilnUserToken, userToken), (.kilnIdentity, identity),
        ].compactMap { name, value in value == nil ? nil : name }
    }

    /// A field sent more than once reads as `HTTPFields` reads it: its values joined with a comma.
    private static func add(_ value: String, to slot: inout String?) {
        slot = slot.map { $0 + ", " + value } ?? value
    }
}
