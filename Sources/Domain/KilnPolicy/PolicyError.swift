/// The policy file is wrong. `field` names the offending field as a dotted path from the top of the file
/// (`talevonia.tiers.pro.daily.image`), and is empty when the file as a whole is unusable.
public struct PolicyError: Error, Sendable, Equatable, CustomStringConvertible {
    public let field: String
    public let reason: String

    init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { field.isEmpty ? reason : "\(field): \(reason)" }
}
