public import Foundation

/// A type whose Swift arrays have a PostgreSQL form: a one-dimensional array (`text[]`, `bigint[]`, … for
/// `unnest($1::text[], …)` batches), except `[UInt8]`, which is `bytea`.
public protocol PostgresArrayElement: Sendable {
    /// The parameter for an array of this type.
    static func postgresValue(of array: [Self]) -> PostgresValue
    /// Reads a column into an array of this type.
    static func decodeArray(postgresText text: String, type: PostgresDataType) throws -> [Self]
}

extension PostgresArrayElement where Self: PostgresEncodable & PostgresDecodable {
    public static func postgresValue(of array: [Self]) -> PostgresValue {
        PostgresValue(text: PostgresArrayLiteral.encode(array.map(\.postgresValue.text)))
    }

    /// Throws on a `NULL` element: read `[T?]` to accept them.
    public static func decodeArray(postgresText text: String, type: PostgresDataType) throws -> [Self] {
        try PostgresArrayLiteral.elements(of: text, type: type, as: [Self].self).map { element, elementType in
            guard let element else { throw PostgresDecodingFailure(reason: "the array holds NULL; read it as [\(Self.self)?]") }
            return try Self(postgresText: element, type: elementType)
        }
    }
}

extension Optional: PostgresArrayElement where Wrapped: PostgresArrayElement & PostgresEncodable & PostgresDecodable {
    /// `NULL` elements for nil.
    public static func postgresValue(of array: [Wrapped?]) -> PostgresValue {
        PostgresValue(text: PostgresArrayLiteral.encode(array.map { $0?.postgresValue.text }))
    }

    public static func decodeArray(postgresText text: String, type: PostgresDataType) throws -> [Wrapped?] {
        try PostgresArrayLiteral.elements(of: text, type: type, as: [Wrapped?].self).map { element, elementType in
            try element.map { try Wrapped(postgresText: $0, type: elementType) }
        }
    }
}

extension UInt8: PostgresArrayElement {
    /// `bytea` in hex form (`\x00ff…`).
    public static func postgresValue(of array: [UInt8]) -> PostgresValue {
        PostgresValue(text: PostgresTextFormat.bytea(array))
    }

    public static func decodeArray(postgresText text: String, type: PostgresDataType) throws -> [UInt8] {
        guard type == .bytea else { throw PostgresDecodingFailure.mismatch(type, [UInt8].self) }
        guard let bytes = PostgresTextFormat.bytes(fromBytea: text) else { throw PostgresDecodingFailure.malformed(type, [UInt8].self) }
        return bytes
    }
}

extension String: PostgresArrayElement {}
extension Int: PostgresArrayElement {}
extension Int64: PostgresArrayElement {}
extension Int32: PostgresArrayElement {}
extension Bool: PostgresArrayElement {}
extension Double: PostgresArrayElement {}
extension Date: PostgresArrayElement {}
extension UUID: PostgresArrayElement {}

extension PostgresArrayLiteral {
    /// The elements of an array column with their type, after checking the column is an array.
    fileprivate static func elements(
        of text: String, type: PostgresDataType, as swiftType: Any.Type
    ) throws -> [(String?, PostgresDataType)] {
        guard let elementType = type.arrayElement else { throw PostgresDecodingFailure.mismatch(type, swiftType) }
        guard let elements = decode(text) else { throw PostgresDecodingFailure.malformed(type, swiftType) }
        return elements.map { ($0, elementType) }
    }
}
