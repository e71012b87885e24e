public import Foundation

/// One quota day of a tenant: from one midnight to the next in its reset time zone, so 23 or 25 hours long on the
/// days the clocks change.
public struct QuotaDay: Sendable, Equatable {
    public let start: Date
    /// The next day's start: when the day's limits reset (`reset_at`).
    public let end: Date
    /// The local date as `yyyyMMdd`, e.g. `20260308`: names the day's counters.
    public let label: String
    /// ``end`` as the API's answers write `reset_at`: ISO 8601, in UTC.
    public let resetAtText: String

    init(containing date: Date, calendar: Calendar) {
        // Where a clock change skips midnight (America/Santiago), the day starts at the first instant that exists.
        // Foundation answers nil only for dates outside the calendar's range, far from any real clock.
        let interval =
            calendar.dateInterval(of: .day, for: date)
            ?? DateInterval(start: calendar.startOfDay(for: date), duration: 86_400)
        let local = calendar.dateComponents([.year, .month, .day], from: interval.start)
        self.start = interval.start
        self.end = interval.end
        self.label = String(format: "%04d%02d%02d", local.year ?? 0, local.month ?? 0, local.day ?? 0)
        self.resetAtText = interval.end.formatted(Date.ISO8601FormatStyle())
    }
}
