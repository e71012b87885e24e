import KilnJSON

/// A value of the policy file with the dotted path it was found at, so that every complaint names its field.
struct PolicyField {
    let value: JSONValue
    let path: String

    /// The largest number the file may hold anywhere: a billion units a day is unlimited in practice, a billion
    /// seconds is 31 years, and it keeps every count far inside `Int` and exact in a `Double`.
    static let largestNumber = 1_000_000_000

    func failure(_ reason: String) -> PolicyError {
        PolicyError(field: path, reason: reason)
    }

    /// A complaint about the field `key` of this object, which may be missing.
    func failure(at key: String, _ reason: String) -> PolicyError {
        PolicyError(field: childPath(key), reason: reason)
    }

    private func childPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func child(_ key: String) -> PolicyField? {
        guard case .object(let fields) = value, let child = fields[key] else { return nil }
        return PolicyField(value: child, path: childPath(key))
    }

    /// An object of named fields, all of them in `allowed`. Unknown keys are rejected before anything else is read,
    /// so a misspelt field is reported as what it is rather than as the field it was meant to be going missing.
    func object(allowing allowed: Set<String>) throws(PolicyError) -> PolicyObject {
        guard case .object(let fields) = value else { throw failure("expected an object") }
        if let unknown = fields.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw failure(at: unknown, "unknown field")
        }
        return PolicyObject(field: self)
    }

    /// An object whose keys are names the file defines (tenants, tiers, kinds), in key order so that of several
    /// mistakes the same one is always reported first.
    func entries() throws(PolicyError) -> [(key: String, field: PolicyField)] {
        guard case .object(let fields) = value else { throw failure("expected an object") }
        return fields.sorted { $0.key < $1.key }.map { key, value in (key, PolicyField(value: value, path: childPath(key))) }
    }

    func elements() throws(PolicyError) -> [PolicyField] {
        guard case .array(let elements) = value else { throw failure("expected an array") }
        return elements.enumerated().map { index, element in PolicyField(value: element, path: "\(path)[\(index)]") }
    }

    func string() throws(PolicyError) -> String {
        guard case .string(let text) = value, !text.isEmpty else { throw failure("expected a non-empty string") }
        return text
    }

    func bool() throws(PolicyError) -> Bool {
        guard case .bool(let flag) = value else { throw failure("expected true or false") }
        return flag
    }

    /// A whole number from `minimum` to `maximum`; `alternative` names another accepted spelling for the message.
    func wholeNumber(atLeast minimum: Int, atMost maximum: Int = largestNumber, alternative: String? = nil) throws(PolicyError) -> Int {
        guard case .number(let number) = value, number.rounded() == number, number >= Double(minimum) else {
            throw failure("expected a whole number ≥ \(minimum)" + (alternative.map { " or \($0)" } ?? ""))
        }
        guard number <= Double(maximum) else { throw failure("too large: at most \(maximum)") }
        return Int(number)
    }

    func seconds(atLeast minimum: Int) throws(PolicyError) -> Duration {
        .seconds(try wholeNumber(atLeast: minimum))
    }

    /// A number in `0 ... 1`.
    func ratio() throws(PolicyError) -> Double {
        guard case .number(let number) = value, (0...1).contains(number) else { throw failure("expected a number from 0 to 1") }
        return number
    }

    /// One of an enumeration's spellings in the file.
    func oneOf<Choice: RawRepresentable & CaseIterable>(_: Choice.Type) throws(PolicyError) -> Choice where Choice.RawValue == String {
        guard case .string(let text) = value, let choice = Choice(rawValue: text) else {
            let spellings = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            let got = if case .string(let text) = value { " (got \"\(text)\")" } else { "" }
            throw failure("expected one of \(spellings)\(got)")
        }
        return choice
    }

    /// Non-empty strings, each at most once.
    func uniqueStrings() throws(PolicyError) -> [(text: String, field: PolicyField)] {
        var seen: Set<String> = []
        var strings: [(text: String, field: PolicyField)] = []
        for element in try elements() {
            let text = try element.string()
            guard seen.insert(text).inserted else { throw element.failure("\"\(text)\" is listed twice") }
            strings.append((text, element))
        }
        return strings
    }
}

/// The named fields of one object of the policy file, its keys already checked against the allowed ones.
struct PolicyObject {
    let field: PolicyField

    func required(_ key: String) throws(PolicyError) -> PolicyField {
        guard let child = field.child(key) else { throw field.failure(at: key, "required") }
        return child
    }

    func optional(_ key: String) -> PolicyField? {
        field.child(key)
    }
}
