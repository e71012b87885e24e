import Foundation

extension Date {
    /// The App Store writes its dates as milliseconds since 1970.
    init(millisecondsSince1970 milliseconds: Double) {
        self.init(timeIntervalSince1970: milliseconds / 1000)
    }
}
