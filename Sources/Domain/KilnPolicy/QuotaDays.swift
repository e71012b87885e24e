import Foundation
import Locking

/// The quota days of one reset time zone, keeping the last one asked for: every metered admission asks for the day it
/// falls in, and Foundation's calendar is too dear to ask on every decision.
final class QuotaDays: Sendable, Equatable {
    private let calendar: Calendar
    private let last = Locked<QuotaDay?>(nil)

    init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The day `date` falls in: the last one asked for when it holds `date`, else computed, and kept.
    func day(containing date: Date) -> QuotaDay {
        if let day = last.withLock({ $0 }), day.start <= date, date < day.end { return day }
        let day = QuotaDay(containing: date, calendar: calendar)
        last.withLock { $0 = day }
        return day
    }

    static func == (lhs: QuotaDays, rhs: QuotaDays) -> Bool {
        lhs.calendar == rhs.calendar
    }
}
