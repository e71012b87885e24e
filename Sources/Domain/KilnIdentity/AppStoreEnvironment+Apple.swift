import KilnPolicy

extension AppStoreEnvironment {
    /// How Apple's payloads spell the environment.
    var appleName: String {
        switch self {
        case .production: "Production"
        case .sandbox: "Sandbox"
        }
    }
}
