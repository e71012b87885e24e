/// The shape of one family of Redis keys: `<base>:<segment>:<segment>…`, each segment a fixed word or a value.
///
/// Swift renders keys from it (``KeySpace``), and the Lua scripts get a helper per pattern generated from it
/// (``luaFunction``), so a key's name is written once for both languages.
public struct KeyPattern: Sendable {
    public enum Segment: Sendable {
        case word(String)
        case value(String)
    }

    /// The family's name; its Lua helper is `<name>_key`.
    public let name: String
    public let segments: [Segment]

    init(_ name: String, _ segments: Segment...) {
        self.name = name
        self.segments = segments
    }

    /// The names of the values the key is built from, in order.
    public var valueNames: [String] {
        segments.compactMap { if case .value(let name) = $0 { name } else { nil } }
    }

    /// The key of `base` for `values`, one per value segment in order.
    func render(_ base: String, _ values: [String]) -> String {
        join(base, values)
    }

    /// The start of the family's keys of `base` whose first values are `values`, up to the `:` after the last of
    /// them: what a `SCAN … MATCH <prefix>*` or a prefix test looks for.
    func prefix(_ base: String, _ values: [String]) -> String {
        join(base, values) + ":"
    }

    /// `base`, then each segment after a `:`, up to the first value segment `values` has no value for.
    private func join(_ base: String, _ values: [String]) -> String {
        var key = base
        var next = values.makeIterator()
        for segment in segments {
            switch segment {
            case .word(let word): key += ":" + word
            case .value:
                guard let value = next.next() else { return key }
                key += ":" + value
            }
        }
        return key
    }

    /// `local function <name>_key(base, <values>) return base .. ':word:' .. value … end`.
    public var luaFunction: String {
        var body = "base"
        var pendingWords = ""
        for segment in segments {
            switch segment {
            case .word(let word): pendingWords += ":" + word
            case .value(let name):
                body += " .. '\(pendingWords):' .. \(name)"
                pendingWords = ""
            }
        }
        if !pendingWords.isEmpty { body += " .. '\(pendingWords)'" }
        let parameters = (["base"] + valueNames).joined(separator: ", ")
        return "local function \(name)_key(\(parameters)) return \(body) end"
    }
}
