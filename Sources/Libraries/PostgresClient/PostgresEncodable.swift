public import Foundation

/// A Swift value that can be a query parameter.
public protocol PostgresEncodable: Sendable {
    /// The parameter as sent: its text form, or `NULL`.
    var postgresValue: PostgresValue { get }
}

extension PostgresEncodable where Self == PostgresValue {
    /// SQL `NULL`, for parameter lists: `[id, .null]`.
    public static var null: PostgresValue { PostgresValue(text: nil) }
}

extension PostgresValue: PostgresEncodable {
    public var postgresValue: PostgresValue { self }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    /// `NULL` for nil.
    public var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}

extension String: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: self) }
}

extension Int: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: String(self)) }
}

extension Int32: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: String(self)) }
}

extension Bool: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: self ? "true" : "false") }
}

extension Double: PostgresEncodable {
    /// The shortest text that reads back as the same value; `NaN`, `Infinity` and `-Infinity` as PostgreSQL spells them.
    public var postgresValue: PostgresValue { PostgresValue(text: PostgresTextFormat.float(self)) }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC to the microsecond (`2026-11-22T03:20:33.123456Z`), for `timestamptz`.
    public var postgresValue: PostgresValue { PostgresValue(text: PostgresTextFormat.timestamp(self)) }
}

extension UUID: PostgresEncodable {
    public var postgresValue: PostgresValue { PostgresValue(text: uuidString.lowercased()) }
}

extension Data: PostgresEncodable {
    /// `bytea` in hex form (`\x00ff…`).
    public var postgresValue: PostgresValue { PostgresValue(text: PostgresTextFormat.bytea(self)) }
}

extension Array: PostgresEncodable where Element: PostgresArrayElement {
    /// A one-dimensional array literal, or `bytea` for `[UInt8]`.
    public var postgresValue: PostgresValue { Element.postgresValue(of: self) }
}
