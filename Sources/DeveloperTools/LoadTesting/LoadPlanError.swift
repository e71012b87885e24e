/// Why a quota load run cannot start: the tenant's policy lacks what a scenario needs, or a parameter is out of range.
public struct LoadPlanError: Error, CustomStringConvertible, Equatable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
