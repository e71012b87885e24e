import Foundation

extension Duration {
    /// The duration in seconds, to add to a `Date`.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
