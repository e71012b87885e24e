/// Checks a JSON document against the subset of JSON Schema that Kiln's structured outputs use: `type` (a name or a
/// list of names), `properties`, `required`, `additionalProperties: false`, `items`, `enum`, `anyOf`,
/// `minItems`/`maxItems`, `minLength`/`maxLength` (in characters as a reader counts them) and
/// `minimum`/`maximum`.
///
/// A model's answer is checked before anything reaches an app, and every violation is reported with its path, so
/// the one repair request can tell the model exactly what to fix. Keywords outside the subset are ignored, as the
/// providers' own structured-output modes ignore what they do not enforce.
public struct JSONSchemaValidator: Sendable {
    public let schema: JSONValue

    public init(schema: JSONValue) {
        self.schema = schema
    }

    /// Every violation in `document`; empty when it is valid.
    public func violations(of document: JSONValue) -> [OutputViolation] {
        var found: [OutputViolation] = []
        Self.check(document, against: schema, at: "$", into: &found)
        return found
    }

    private static func check(_ value: JSONValue, against schema: JSONValue, at path: String, into found: inout [OutputViolation]) {
        if let branches = schema["anyOf"]?.arrayValue, !branches.isEmpty {
            let outcomes = branches.map { branch in
                var branchFound: [OutputViolation] = []
                check(value, against: branch, at: path, into: &branchFound)
                return branchFound
            }
            // The branch that came closest says the most useful thing about what to fix; a branch whose fixed values
            // (an `enum` such as a status) the document does not have is the wrong branch, not a close one.
            let closest = outcomes.min { left, right in
                (enumMisses(left), left.count) < (enumMisses(right), right.count)
            }
            if let closest, !closest.isEmpty {
                found.append(OutputViolation(path: path, reason: "matches none of the \(branches.count) allowed shapes"))
                found.append(contentsOf: closest)
            }
        }
        if let allowed = schema["type"], !matches(value, type: allowed) {
            found.append(OutputViolation(path: path, reason: "must be of type \(describe(allowed)), not \(typeName(of: value))"))
            return
        }
        if let options = schema["enum"]?.arrayValue, !options.contains(where: { equal($0, value) }) {
            let listed = options.prefix(12).map { $0.canonicalJSON() }.joined(separator: ", ")
            found.append(OutputViolation(path: path, reason: "\(enumReason)\(listed)\(options.count > 12 ? ", …" : "")"))
        }
        switch value {
        case .object(let fields):
            checkObject(fields, against: schema, at: path, into: &found)
        case .array(let elements):
            checkArray(elements, against: schema, at: path, into: &found)
        case .string(let text):
            let length = text.count
            if let minimum = schema["minLength"]?.intValue, length < minimum {
                found.append(OutputViolation(path: path, reason: "must be at least \(minimum) characters long, not \(length)"))
            }
            if let maximum = schema["maxLength"]?.intValue, length > maximum {
                found.append(OutputViolation(path: path, reason: "must be at most \(maximum) characters long, not \(length)"))
            }
        case .number(let number):
            if let minimum = schema["minimum"]?.numberValue, number < minimum {
                found.append(OutputViolation(path: path, reason: "must be at least \(format(minimum)), not \(format(number))"))
            }
            if let maximum = schema["maximum"]?.numberValue, number > maximum {
                found.append(OutputViolation(path: path, reason: "must be at most \(format(maximum)), not \(format(number))"))
            }
        case .bool, .null:
            break
        }
    }

    private static func checkObject(_ fields: [String: JSONValue], against schema: JSONValue, at path: String, into found: inout [OutputViolation]) {
        let properties: [String: JSONValue]
        if case .object(let declared)? = schema["properties"] { properties = declared } else { properties = [:] }
        for name in schema["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where fields[name] == nil {
            found.append(OutputViolation(path: "\(path).\(name)", reason: "is required"))
        }
        for name in fields.keys.sorted() {
            guard let value = fields[name] else { continue }
            if let property = properties[name] {
                check(value, against: property, at: "\(path).\(name)", into: &found)
            } else if schema["additionalProperties"] == .bool(false) {
                found.append(OutputViolation(path: "\(path).\(name)", reason: "is not an allowed property"))
            }
        }
    }

    private static func checkArray(_ elements: [JSONValue], against schema: JSONValue, at path: String, into found: inout [OutputViolation]) {
        if let minimum = schema["minItems"]?.intValue, elements.count < minimum {
            found.append(OutputViolation(path: path, reason: "must hold at least \(minimum) items, not \(elements.count)"))
        }
        if let maximum = schema["maxItems"]?.intValue, elements.count > maximum {
            found.append(OutputViolation(path: path, reason: "must hold at most \(maximum) items, not \(elements.count)"))
        }
        guard let items = schema["items"] else { return }
        for (index, element) in elements.enumerated() {
            check(element, against: items, at: "\(path)[\(index)]", into: &found)
        }
    }

    private static let enumReason = "must be one of "

    private static func enumMisses(_ violations: [OutputViolation]) -> Int {
        violations.filter { $0.reason.hasPrefix(enumReason) }.count
    }

    /// Whether `value` is of one of the named types; `integer` is a number without a fraction.
    private static func matches(_ value: JSONValue, type: JSONValue) -> Bool {
        let names = type.stringValue.map { [$0] } ?? type.arrayValue?.compactMap(\.stringValue) ?? []
        return names.contains { name in
            switch (name.lowercased(), value) {
            case ("object", .object), ("array", .array), ("string", .string), ("boolean", .bool), ("null", .null), ("number", .number):
                true
            case ("integer", .number(let number)):
                number.rounded() == number
            default:
                false
            }
        }
    }

    /// Numbers compare by value, so `1` and `1.0` are the same enum member.
    private static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        left.canonicalJSON() == right.canonicalJSON()
    }

    private static func describe(_ type: JSONValue) -> String {
        type.stringValue ?? type.arrayValue?.compactMap(\.stringValue).joined(separator: " or ") ?? "?"
    }

    private static func typeName(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
    }
}
