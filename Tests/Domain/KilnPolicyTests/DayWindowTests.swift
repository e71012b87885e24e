import Foundation
import KilnPolicy
import Testing

/// Quota days run from midnight to midnight in the tenant's reset time zone, whatever the clocks do.
@Suite struct DayWindowTests {
    static func instant(_ text: String) throws -> Date {
        try #require(ISO8601DateFormatter().date(from: text))
    }

    func talevonia() throws -> TenantPolicy {
        try PolicySet.load(path: PolicyDocument.checkedInPath).policy("talevonia")
    }

    @Test(arguments: [
        // An ordinary summer day in Los Angeles (UTC−7).
        ("2026-06-15T19:00:00Z", "2026-06-15T07:00:00Z", "2026-06-16T07:00:00Z", "20260615"),
        // Just before midnight local time, the day is still the old one.
        ("2026-06-16T06:59:59Z", "2026-06-15T07:00:00Z", "2026-06-16T07:00:00Z", "20260615"),
        // Spring forward: 02:00 PST becomes 03:00 PDT, a 23-hour day.
        ("2026-03-08T12:00:00Z", "2026-03-08T08:00:00Z", "2026-03-09T07:00:00Z", "20260308"),
        // Fall back: 01:00–02:00 happens twice, a 25-hour day; both 01:30s are in it.
        ("2026-11-01T08:30:00Z", "2026-11-01T07:00:00Z", "2026-11-02T08:00:00Z", "20261101"),
        ("2026-11-01T09:30:00Z", "2026-11-01T07:00:00Z", "2026-11-02T08:00:00Z", "20261101"),
        // New Year's Eve in UTC is still 31 December in Los Angeles.
        ("2027-01-01T03:00:00Z", "2026-12-31T08:00:00Z", "2027-01-01T08:00:00Z", "20261231"),
    ])
    func dayInTheResetTimeZone(now: String, start: String, end: String, label: String) throws {
        let day = try talevonia().dayWindow(containing: Self.instant(now))
        #expect(day.start == (try Self.instant(start)))
        #expect(day.end == (try Self.instant(end)))
        #expect(day.label == label)
    }

    @Test func eachDayStartsWhereTheLastEnded() throws {
        let policy = try talevonia()
        // Across both clock changes of 2026, walking day by day gives exactly one reset per local day.
        var day = policy.dayWindow(containing: try Self.instant("2026-01-01T12:00:00Z"))
        var hours: [Double: Int] = [:]
        for _ in 0..<365 {
            let next = policy.dayWindow(containing: day.end)
            #expect(next.start == day.end)
            #expect(next.label > day.label)
            hours[day.end.timeIntervalSince(day.start) / 3600, default: 0] += 1
            day = next
        }
        #expect(hours == [24: 363, 23: 1, 25: 1])
    }

    @Test func oneTenantAskedAboutDaysOutOfOrderGetsEachRight() throws {
        // Admission asks one tenant's policy for the current day at every decision; the day it answered last must not
        // answer for an instant outside it, on either side, or at its end, which is the next day's start.
        let policy = try talevonia()
        let asked = [
            ("2026-06-15T19:00:00Z", "20260615"), ("2026-06-16T07:00:00Z", "20260616"), ("2026-06-16T06:59:59Z", "20260615"),
            ("2026-06-15T06:59:59Z", "20260614"), ("2026-06-15T07:00:00Z", "20260615"), ("2026-06-15T07:00:00Z", "20260615"),
        ]
        for (now, label) in asked {
            #expect(policy.dayWindow(containing: try Self.instant(now)).label == label, "at \(now)")
        }
    }

    @Test func aDayWhoseMidnightIsSkippedStartsAtItsFirstInstant() throws {
        // Chile moves its clocks from 00:00 to 01:00 on 7 September 2025: that day has no midnight.
        let policies = try PolicyDocument.parse(applying: [.set("joanie", "reset_time_zone", to: #""America/Santiago""#)])
        let joanie = try policies.policy("joanie")
        let skipped = joanie.dayWindow(containing: try Self.instant("2025-09-07T15:00:00Z"))
        #expect(skipped.start == (try Self.instant("2025-09-07T04:00:00Z")))
        #expect(skipped.end == (try Self.instant("2025-09-08T03:00:00Z")))
        #expect(skipped.label == "20250907")
        let before = joanie.dayWindow(containing: try Self.instant("2025-09-07T03:59:59Z"))
        #expect(before.label == "20250906")
        #expect(before.end == skipped.start)
    }
}
