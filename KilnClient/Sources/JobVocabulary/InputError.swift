import Foundation

/// A submission's input is not what its kind accepts; `field` names the offending field as a dotted path.
public struct InputError: Error, Sendable, CustomStringConvertible {
    public let field: String
    public let reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    /// Translates a decoding failure of the input into the field it concerns, under `input.`.
    public init(decoding error: any Error) {
        func path(_ codingPath: [any CodingKey]) -> String {
            (["input"] + codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }).joined(separator: ".")
                .replacingOccurrences(of: ".[", with: "[")
        }
        switch error {
        case DecodingError.keyNotFound(let key, let context):
            self.init(field: path(context.codingPath + [key]), reason: "is required")
        case DecodingError.typeMismatch(let type, let context):
            self.init(field: path(context.codingPath), reason: "must be \(Self.kind(of: type))")
        case DecodingError.valueNotFound(let type, let context):
            self.init(field: path(context.codingPath), reason: "must be \(Self.kind(of: type)), not null")
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty && context.underlyingError == nil:
            // The input was valid JSON (it was parsed before it was decoded): on Linux, Foundation says this, with no
            // path, of a number its field cannot hold.
            self.init(field: "input", reason: "holds a number its field cannot take: a fraction where a whole number goes, or one too large")
        case DecodingError.dataCorrupted(let context):
            self.init(field: path(context.codingPath), reason: context.debugDescription)
        case let error as InputError:
            self = error
        default:
            self.init(field: "input", reason: "is not valid")
        }
    }

    /// What a JSON value of `type` is, in the words of the caller's JSON rather than Swift's.
    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is any BinaryInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        default: "\(type)"
        }
    }

    public var description: String { "\(field) \(reason)" }
}
