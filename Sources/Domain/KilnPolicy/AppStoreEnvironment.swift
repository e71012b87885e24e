/// The App Store server environment whose signatures a tenant accepts. Production and sandbox purchases are kept
/// apart: a sandbox (TestFlight, development) transaction never grants anything in production.
public enum AppStoreEnvironment: String, Sendable, Hashable, CaseIterable {
    case production
    case sandbox
}
