/// The prefixes that keep the identity modes' identities apart (docs/identity.md): an App Store id, a made-up device
/// id and an app's own user id each name an identity no other mode's value can spell.
///
/// An app's user id (a JWT's `sub`) is its identity as it is, unless it starts with one of these prefixes: then it is
/// escaped, `u:` in front, so a `sub` of `ot:123` is `u:ot:123` and never the App Store user `ot:123`.
public enum IdentityNamespace: String, Sendable, CaseIterable {
    /// `ot:<originalTransactionId>`: the buyer of a signed App Store transaction.
    case appStoreTransaction = "ot:"
    /// `at:<appTransactionId>`: the Apple Account of a signed `AppTransaction`.
    case appTransaction = "at:"
    /// `d:<device id>`: an anonymous device.
    case device = "d:"
    /// `u:<user id>`: an app's user id that itself starts with one of these prefixes.
    case escapedUser = "u:"

    /// The namespace whose prefix `name` starts with; nil when it starts with none.
    public init?(of name: String) {
        guard let namespace = Self.allCases.first(where: { name.hasPrefix($0.rawValue) }) else { return nil }
        self = namespace
    }

    /// The identity's name in this namespace: the prefix, then `id`.
    public func name(_ id: String) -> String {
        rawValue + id
    }

    /// The identity's name of an app's user id (a JWT's `sub`): the id as it is, or escaped when it starts with a
    /// prefix. Two user ids never get the same name, and none gets the name of another namespace's identity.
    public static func userName(_ userID: String) -> String {
        Self(of: userID) == nil ? userID : escapedUser.name(userID)
    }
}
