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
            self.init(field: path(context.codingPath), reason: "must be of type \(type)")
        case DecodingError.valueNotFound(let type, let context):
            self.init(field: path(context.codingPath), reason: "must be a \(type), not null")
        case DecodingError.dataCorrupted(let context):
            self.init(field: path(context.codingPath), reason: context.debugDescription)
        case let error as InputError:
            self = error
        default:
            self.init(field: "input", reason: "is not valid")
        }
    }

    public var description: String { "\(field) \(reason)" }
}
