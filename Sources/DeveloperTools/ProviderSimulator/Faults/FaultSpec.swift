/// A parsed fault spec: `<mode>[; <param>=<value>]*`, as sent in `x-kiln-fault`, in a prompt's
/// `[[fault: …]]` directive, or in a scenario rule.
struct FaultSpec: Sendable, Equatable {
    /// A spec that does not parse; the message says why, and is returned to the client in a 400.
    struct ParseError: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    let mode: FaultMode
    /// Parameters in the order given; later duplicates win on lookup.
    let parameters: [String: String]
    /// The spec as written, trimmed; the default counter key for `times`.
    let text: String

    init(mode: FaultMode, parameters: [String: String] = [:]) {
        self.mode = mode
        self.parameters = parameters
        self.text = ([mode.rawValue] + parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: "; ")
    }

    init(parsing text: String) throws(ParseError) {
        let parts = text.split(separator: ";").map { $0.trimmingSpaces() }
        guard let name = parts.first, !name.isEmpty else { throw ParseError(description: "empty fault spec") }
        guard let mode = FaultMode(rawValue: name.lowercased()) else {
            throw ParseError(description: "unknown fault mode '\(name)'")
        }
        var parameters: [String: String] = [:]
        for part in parts.dropFirst() where !part.isEmpty {
            guard let equals = part.firstIndex(of: "=") else {
                throw ParseError(description: "fault parameter '\(part)' is not name=value")
            }
            let key = part[..<equals].trimmingSpaces().lowercased()
            guard !key.isEmpty else { throw ParseError(description: "fault parameter '\(part)' has no name") }
            parameters[key] = part[part.index(after: equals)...].trimmingSpaces()
        }
        for numeric in ["times", "code", "count", "interval_ms", "delay_ms", "after_events", "retry_after", "retry_after_ms", "bytes"] {
            if let value = parameters[numeric], Int(value) == nil {
                throw ParseError(description: "fault parameter '\(numeric)' must be an integer, got '\(value)'")
            }
        }
        if mode == .status, Self.code(in: parameters) == nil {
            throw ParseError(description: "fault 'status' needs code=NNN between 400 and 599")
        }
        self.mode = mode
        self.parameters = parameters
        self.text = text.trimmingSpaces()
    }

    private static func code(in parameters: [String: String]) -> Int? {
        parameters["code"].flatMap(Int.init).flatMap { (400...599).contains($0) ? $0 : nil }
    }

    /// An integer parameter, or `fallback` when absent.
    func integer(_ name: String, default fallback: Int) -> Int {
        self.parameters[name].flatMap(Int.init) ?? fallback
    }

    /// A flag parameter: `1`, `true` or `yes`.
    func flag(_ name: String) -> Bool {
        ["1", "true", "yes"].contains(self.parameters[name]?.lowercased() ?? "")
    }

    /// How many requests carrying ``counterKey`` the fault applies to; `nil` means all of them.
    var times: Int? { self.parameters["times"].flatMap(Int.init) }

    /// The counter shared by requests with the same `key=` (the spec text when there is none).
    var counterKey: String { self.parameters["key"] ?? self.text }

    /// The status of a `status` fault.
    var statusCode: Int? { Self.code(in: self.parameters) }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        String(self.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
