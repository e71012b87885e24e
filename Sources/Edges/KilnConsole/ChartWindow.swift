import HTTPTypes
import KilnQueue

/// The time the overview's charts span, as its `window` parameter names it: the last hour, a bar a minute (the
/// default), or the last 24 hours, a bar per ten minutes.
enum ChartWindow: String, CaseIterable {
    case hour = "1h"
    case day = "24h"

    /// The `window` parameter's value, or the default when there is none. - Throws: a 400 for any other.
    init(parameter: String?) throws {
        guard let parameter, !parameter.isEmpty else {
            self = .hour
            return
        }
        guard let window = ChartWindow(rawValue: parameter) else {
            throw ConsoleRefusal(.badRequest, "window: one of \(Self.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self = window
    }

    var bucket: Throughput.Bucket { self == .hour ? .minute : .tenMinutes }
    var bars: Int { self == .hour ? 60 : 144 }
    /// What one bar counts.
    var unit: String { self == .hour ? "/min" : "/10 min" }
    /// The labels under the chart's first bar and its middle.
    var start: String { self == .hour ? "−60 min" : "−24 h" }
    var middle: String { self == .hour ? "−30 min" : "−12 h" }
    /// The link's text.
    var name: String { self == .hour ? "last hour" : "last 24 hours" }
    /// The column's heading.
    var heading: String { self == .hour ? "Ended, last 60 min" : "Ended, last 24 h" }
}
