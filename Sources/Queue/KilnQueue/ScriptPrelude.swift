/// What the loader puts in front of a script's bindings and body: the key helpers generated from `KeySpace` and the
/// definitions of `common.lua`, of which only those the script uses, directly or through another.
///
/// Redis runs a script's whole text on every call, so each `local function` in front of it is a closure made anew each
/// time: every helper a script does not use would cost Redis's one core on every call.
struct ScriptPrelude: Sendable {
    /// One top-level definition, up to the next: the names it defines and its text.
    private struct Definition: Sendable {
        let names: [String]
        let text: String
    }

    private let definitions: [Definition]

    /// - Parameter lua: top-level `local function name(…)` and `local a, b = …` definitions only. A definition runs until
    ///   the next top-level `local`: its body, and any comment that follows it, go with it.
    init(lua: String) {
        var definitions: [Definition] = []
        var current: (names: [String], lines: [Substring])?
        for line in lua.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("local ") {
                if let current { definitions.append(Definition(names: current.names, text: current.lines.joined(separator: "\n"))) }
                current = (Self.names(definedBy: line), [line])
            } else {
                current?.lines.append(line)
            }
        }
        if let current { definitions.append(Definition(names: current.names, text: current.lines.joined(separator: "\n"))) }
        self.definitions = definitions
    }

    /// The definitions `body` needs, in their order: those it names, and those they name, and so on.
    func needed(by body: String) -> String {
        var needed = Array(repeating: false, count: definitions.count)
        var pending = [body]
        while let text = pending.popLast() {
            let words = Self.identifiers(in: text)
            for (index, definition) in definitions.enumerated() where !needed[index] && definition.names.contains(where: words.contains) {
                needed[index] = true
                pending.append(definition.text)
            }
        }
        return zip(definitions, needed).filter(\.1).map(\.0.text).joined(separator: "\n")
    }

    /// `local function make_ready(…)` → make_ready; `local a, b = …` → a, b.
    private static func names(definedBy line: Substring) -> [String] {
        var rest = line.dropFirst("local ".count)
        if rest.hasPrefix("function ") {
            rest = rest.dropFirst("function ".count)
            return [String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" })]
        }
        let declared = rest.prefix { $0 != "=" }
        return declared.split(separator: ",").map { String($0.filter { $0 != " " }) }
    }

    /// The words of `text`'s code, comments left out (the scripts put no `--` inside a string).
    private static func identifiers(in text: String) -> Set<String> {
        var words: Set<String> = []
        for line in text.split(separator: "\n") {
            let code = line.firstRange(of: "--").map { line[..<$0.lowerBound] } ?? line
            words.formUnion(code.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        }
        return words
    }
}
