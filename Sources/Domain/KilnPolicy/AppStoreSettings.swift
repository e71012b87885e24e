/// How a tenant's App Store credentials are verified (`app_store` in the policy file): the signed transactions and
/// `AppTransaction`s of one app, in one environment, chained to the configured root certificates.
public struct AppStoreSettings: Sendable, Equatable {
    /// The app's bundle id; a transaction of any other app is refused.
    public let bundleID: String
    /// The environment whose transactions are accepted; the other one is refused.
    public let environment: AppStoreEnvironment
    /// PEM files of the roots that signatures must chain to: Apple Root CA - G3 in production.
    public let rootCertificates: [PolicyReference]
    /// The app's Apple ID (the number in its App Store URL). When set, an `AppTransaction` must carry it, as Apple's
    /// library requires in production; transactions do not carry it.
    public let appAppleID: Int64?
}

extension AppStoreSettings {
    /// The largest app Apple ID the file may hold: every integer up to it is exact in the JSON reader's `Double`.
    static let largestAppAppleID = 9_007_199_254_740_991

    /// `{"bundle_id": "com.example.app", "environment": "production", "root_certificates": ["apple/AppleRootCA-G3.pem"]}`
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["bundle_id", "environment", "root_certificates", "app_apple_id"])
        let rootsField = try object.required("root_certificates")
        let roots = try rootsField.uniqueStrings()
        guard !roots.isEmpty else { throw rootsField.failure("expected at least one root certificate") }
        var appAppleID: Int64?
        if let idField = object.optional("app_apple_id") {
            appAppleID = Int64(try idField.wholeNumber(atLeast: 1, atMost: Self.largestAppAppleID))
        }
        self.init(
            bundleID: try object.required("bundle_id").string(),
            environment: try object.required("environment").oneOf(AppStoreEnvironment.self),
            rootCertificates: roots.map { PolicyReference($0.text, at: $0.field) },
            appAppleID: appAppleID
        )
    }
}
