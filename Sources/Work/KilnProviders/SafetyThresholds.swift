public import KilnPolicy

/// The moderation score from which a tenant's strictness refuses content, per category. A category missing from a
/// level's table uses its `otherwise` threshold.
public struct SafetyThresholds: Sendable, Equatable {
    public let byCategory: [String: Double]
    public let otherwise: Double

    /// The thresholds of a strictness (docs/providers.md explains each):
    /// - `standard`: 0.5, as the providers flag; anything sexual involving minors from 0.01.
    /// - `fiction`: standard, but violence only from 0.99 and violent illicit acts from 0.8 (a game master's battles);
    ///   graphic violence and self-harm stay at standard or stricter.
    /// - `strict`: sexual content and harassment from 0.2, hate from 0.3 (real people's photos and names).
    /// - `child`: everything from 0.1.
    public init(_ strictness: SafetyStrictness) {
        let minors = ["sexual/minors": 0.01]
        switch strictness {
        case .standard:
            self.init(byCategory: minors, otherwise: 0.5)
        case .fiction:
            self.init(
                byCategory: minors.merging(
                    ["violence": 0.99, "illicit/violent": 0.8, "self-harm": 0.3, "self-harm/intent": 0.3, "self-harm/instructions": 0.3]) { $1 },
                otherwise: 0.5)
        case .strict:
            self.init(
                byCategory: minors.merging(["sexual": 0.2, "harassment": 0.2, "harassment/threatening": 0.2, "hate": 0.3]) { $1 },
                otherwise: 0.5)
        case .child:
            self.init(byCategory: minors, otherwise: 0.1)
        }
    }

    public init(byCategory: [String: Double], otherwise: Double) {
        self.byCategory = byCategory
        self.otherwise = otherwise
    }

    /// The categories of `result` at or above their threshold, sorted; empty when the content passes.
    public func violations(in result: ModerationResult) -> [String] {
        result.scores.filter { $0.value >= (self.byCategory[$0.key] ?? self.otherwise) }.keys.sorted()
    }
}
