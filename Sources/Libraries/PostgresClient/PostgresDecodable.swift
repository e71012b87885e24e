public import Foundation

/// A Swift value that can be read from a column in text format.
public protocol PostgresDecodable: Sendable {
    /// Reads the server's text output of a value of `type`; throws when this Swift type does not read `type`.
    init(postgresText text: String, type: PostgresDataType) throws
}

/// Why a value could not be read; ``PostgresRow`` adds the column and throws a ``PostgresError``.
struct PostgresDecodingFailure: Error {
    let reason: String

    static func mismatch(_ type: PostgresDataType, _ swiftType: Any.Type) -> PostgresDecodingFailure {
        PostgresDecodingFailure(reason: "a \(type) column cannot be read as \(swiftType)")
    }

    static func malformed(_ type: PostgresDataType, _ swiftType: Any.Type) -> PostgresDecodingFailure {
        PostgresDecodingFailure(reason: "the \(type) value is not a valid \(swiftType)")
    }
}

extension PostgresDecodable {
    /// Checks the column's type, then parses; a parse failure is reported without the value.
    fileprivate init(_ text: String, _ type: PostgresDataType, accepting accepts: Bool, _ parse: (String) -> Self?) throws {
        guard accepts else { throw PostgresDecodingFailure.mismatch(type, Self.self) }
        guard let value = parse(text) else { throw PostgresDecodingFailure.malformed(type, Self.self) }
        self = value
    }
}

extension String: PostgresDecodable {
    /// Any column, as the server prints it: `uuid`, `jsonb` and `numeric` read as their text.
    public init(postgresText text: String, type: PostgresDataType) throws {
        self = text
    }
}

extension Int: PostgresDecodable {
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type.isInteger) { Int($0) }
    }
}

extension Int64: PostgresDecodable {
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type.isInteger) { Int64($0) }
    }
}

extension Int32: PostgresDecodable {
    /// `smallint` and `integer`, and `bigint` values that fit.
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type.isInteger) { Int32($0) }
    }
}

extension Bool: PostgresDecodable {
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type == .bool) { text in
            switch text {
            case "t": true
            case "f": false
            default: nil
            }
        }
    }
}

extension Double: PostgresDecodable {
    /// `real`, `double precision`, `numeric` and the integer types.
    public init(postgresText text: String, type: PostgresDataType) throws {
        let accepts = type == .float8 || type == .float4 || type == .numeric || type.isInteger
        try self.init(text, type, accepting: accepts, PostgresTextFormat.double(fromFloat:))
    }
}

extension Date: PostgresDecodable {
    /// `timestamptz` only: a `timestamp` without time zone does not name an instant.
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type == .timestamptz, PostgresTextFormat.date(fromTimestamp:))
    }
}

extension UUID: PostgresDecodable {
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type == .uuid) { UUID(uuidString: $0) }
    }
}

extension Data: PostgresDecodable {
    public init(postgresText text: String, type: PostgresDataType) throws {
        try self.init(text, type, accepting: type == .bytea) { PostgresTextFormat.bytes(fromBytea: $0).map { Data($0) } }
    }
}

extension Array: PostgresDecodable where Element: PostgresArrayElement {
    /// A one-dimensional array, or `bytea` for `[UInt8]`.
    public init(postgresText text: String, type: PostgresDataType) throws {
        self = try Element.decodeArray(postgresText: text, type: type)
    }
}
