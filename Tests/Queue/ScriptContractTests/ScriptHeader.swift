import RedisClient

/// What a Lua script's header comment declares: `-- KEYS:`, `-- ARGV:`, `-- ARGV each:`, `-- RETURNS:`,
/// `-- RETURNS each:` and `-- RETURNS <tag>:` lines, each a comma-separated list of names that may go on over
/// indented comment lines.
struct ScriptHeader {
    var keys: [String] = []
    var arguments: [String] = []
    var itemArguments: [String] = []
    var replies: [RedisReplyShape] = []

    init(lua: String) {
        var untagged: [String]?
        var untaggedItems: [String] = []
        var lines: [(label: String, names: [String])] = []
        for line in lua.split(separator: "\n") where line.hasPrefix("-- ") {
            let text = line.dropFirst(3)
            if text.hasPrefix("  "), !text.contains(":"), !lines.isEmpty {
                lines[lines.count - 1].names += Self.names(in: text)
            } else if let colon = text.firstIndex(of: ":") {
                lines.append((String(text[..<colon]), Self.names(in: text[text.index(after: colon)...])))
            }
        }
        for (label, names) in lines {
            switch label {
            case "KEYS": keys = names
            case "ARGV": arguments = names
            case "ARGV each": itemArguments = names
            case "RETURNS": untagged = names
            case "RETURNS each": untaggedItems = names
            case _ where label.hasPrefix("RETURNS "): replies.append(RedisReplyShape(tag: String(label.dropFirst(8)), fields: names))
            default: continue
            }
        }
        if let untagged { replies.append(RedisReplyShape(fields: untagged, itemFields: untaggedItems)) }
    }

    private static func names(in list: Substring) -> [String] {
        list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: set.contains).reversed().drop(while: set.contains).reversed())
    }
}

extension Set<Character> {
    fileprivate static let whitespaces: Set<Character> = [" ", "\t"]
}
