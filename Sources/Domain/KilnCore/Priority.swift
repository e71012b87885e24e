/// Strict priority within a tenant: every high job is claimed before any normal one.
public enum Priority: String, Sendable, Codable, CaseIterable {
    case high, normal, low

    /// The index of the tenant's ready list for this priority, 0 first.
    public var rank: Int {
        switch self {
        case .high: 0
        case .normal: 1
        case .low: 2
        }
    }

    public init?(rank: Int) {
        guard let priority = Priority.allCases.first(where: { $0.rank == rank }) else { return nil }
        self = priority
    }
}
