import Foundation

/// A prompt kept as a versioned text file rather than as string literals in code, so a prompt change is a reviewed
/// file with a new version, and every result names the version that produced it.
///
/// The file holds sections, each opened by a line `=== system ===` or `=== user ===`; lines starting with `##` are
/// comments. Inside a section:
///
/// - `{{name}}`, `{{name.field}}`, `{{name.0}}`: a value from the job (strings as they are, numbers, a list of strings
///   joined with ", "). Values are inserted once and never read as template text, so an input holding `{{` stays inert.
/// - `{{#if name}}…{{else}}…{{/if}}`: the first part when the value is present and not empty, false or zero.
/// - `{{#each name}}…{{/each}}`: the part once per element; inside it `{{.}}` is the element, `{{field}}` a field of
///   it (before the outer values), and `{{@number}}` its position from 1.
///
/// A block tag alone on its line takes the line with it, so templates can be laid out readably. A name the values
/// do not hold is an error, not an empty string: a misspelt name must fail the test, not the prompt.
public struct PromptTemplate: Sendable {
    /// A template that does not parse, or values that do not fit it.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// A rendered prompt: the instructions and the user's message.
    public struct Rendered: Sendable, Equatable {
        public let system: String
        public let user: String
    }

    private indirect enum Node: Sendable {
        case text(String)
        case value(String)
        case conditional(String, then: [Node], otherwise: [Node])
        case loop(String, body: [Node])
    }

    /// The kind and version it was loaded as, e.g. `text.continue.v1`; results carry it.
    public let id: String
    private let system: [Node]
    private let user: [Node]

    public init(id: String, text: String) throws(Failure) {
        self.id = id
        var sections: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed.hasPrefix("##") { continue }
            if trimmed.hasPrefix("==="), trimmed.hasSuffix("==="), trimmed.count > 6 {
                let name = String(trimmed.dropFirst(3).dropLast(3)).trimmingCharacters(in: .whitespaces)
                guard name == "system" || name == "user" else { throw Failure(description: "\(id): unknown section '\(name)'") }
                current = name
                sections[name] = ""
                continue
            }
            guard let current else {
                guard trimmed.isEmpty else { throw Failure(description: "\(id): text before the first section") }
                continue
            }
            sections[current, default: ""] += line + "\n"
        }
        guard let user = sections["user"] else { throw Failure(description: "\(id): no '=== user ===' section") }
        self.system = try Self.parse(Self.standalone(sections["system"] ?? ""), id: id)
        self.user = try Self.parse(Self.standalone(user), id: id)
    }

    /// Renders both sections with `values` (an object), trimmed of the blank lines around them.
    public func render(_ values: JSONValue) throws(Failure) -> Rendered {
        Rendered(
            system: try Self.render(system, scopes: [values], index: nil, id: id).trimmingCharacters(in: .whitespacesAndNewlines),
            user: try Self.render(user, scopes: [values], index: nil, id: id).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Removes the line of a block tag that stands alone on it, newline included.
    private static func standalone(_ text: String) -> String {
        var output = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            let isBlockTag =
                trimmed.hasPrefix("{{") && trimmed.hasSuffix("}}") && trimmed.dropFirst(2).dropLast(2).allSatisfy({ $0 != "{" && $0 != "}" })
            if isBlockTag, let marker = trimmed.dropFirst(2).first, "#/".contains(marker) || trimmed == "{{else}}" {
                output += trimmed
            } else {
                output += line + "\n"
            }
        }
        return output
    }

    private static func parse(_ text: String, id: String) throws(Failure) -> [Node] {
        // A stack of open blocks: the tag that opened it and the nodes gathered so far (and before `else`).
        var stack: [(tag: String, name: String, nodes: [Node], before: [Node]?)] = [("", "", [], nil)]
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { stack[stack.count - 1].nodes.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else { throw Failure(description: "\(id): '{{' without '}}'") }
            let tag = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            if tag.hasPrefix("#if ") || tag.hasPrefix("#each ") {
                let parts = tag.dropFirst().split(separator: " ", maxSplits: 1)
                stack.append((String(parts[0]), parts[1].trimmingCharacters(in: .whitespaces), [], nil))
            } else if tag == "else" {
                guard stack.count > 1, stack[stack.count - 1].tag == "if", stack[stack.count - 1].before == nil else {
                    throw Failure(description: "\(id): '{{else}}' outside an '{{#if}}'")
                }
                stack[stack.count - 1].before = stack[stack.count - 1].nodes
                stack[stack.count - 1].nodes = []
            } else if tag.hasPrefix("/") {
                let block = stack.removeLast()
                guard stack.count >= 1, block.tag == tag.dropFirst() else { throw Failure(description: "\(id): '{{\(tag)}}' closes nothing open") }
                let node: Node =
                    block.tag == "if"
                    ? .conditional(block.name, then: block.before ?? block.nodes, otherwise: block.before == nil ? [] : block.nodes)
                    : .loop(block.name, body: block.nodes)
                stack[stack.count - 1].nodes.append(node)
            } else {
                guard !tag.isEmpty, !tag.contains(" ") else { throw Failure(description: "\(id): '{{\(tag)}}' is not a tag") }
                stack[stack.count - 1].nodes.append(.value(tag))
            }
        }
        if !rest.isEmpty { stack[stack.count - 1].nodes.append(.text(String(rest))) }
        guard stack.count == 1 else { throw Failure(description: "\(id): '{{#\(stack[stack.count - 1].tag)}}' is never closed") }
        return stack[0].nodes
    }

    private static func render(_ nodes: [Node], scopes: [JSONValue], index: Int?, id: String) throws(Failure) -> String {
        var output = ""
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .value(let name):
                let value = try lookup(name, scopes: scopes, index: index, id: id)
                switch value {
                case .string(let text): output += text
                case .number, .bool: output += value.canonicalJSON()
                case .null: break
                case .array(let elements) where elements.allSatisfy({ $0.stringValue != nil }):
                    output += elements.compactMap(\.stringValue).joined(separator: ", ")
                case .array, .object: throw Failure(description: "\(id): '{{\(name)}}' is not text")
                }
            case .conditional(let name, let then, let otherwise):
                let chosen = isPresent(try lookup(name, scopes: scopes, index: index, id: id, optional: true)) ? then : otherwise
                output += try render(chosen, scopes: scopes, index: index, id: id)
            case .loop(let name, let body):
                guard case .array(let elements) = try lookup(name, scopes: scopes, index: index, id: id, optional: true) ?? .array([]) else {
                    throw Failure(description: "\(id): '{{#each \(name)}}' is not a list")
                }
                for (position, element) in elements.enumerated() {
                    output += try render(body, scopes: scopes + [element], index: position + 1, id: id)
                }
            }
        }
        return output
    }

    private static func lookup(_ name: String, scopes: [JSONValue], index: Int?, id: String) throws(Failure) -> JSONValue {
        guard let value = try lookup(name, scopes: scopes, index: index, id: id, optional: false) else {
            throw Failure(description: "\(id): no value for '{{\(name)}}'")
        }
        return value
    }

    /// The value of a dotted name, from the innermost scope that holds its first part; nil when none does and it is
    /// `optional` (an `if` or `each` on an absent field).
    private static func lookup(_ name: String, scopes: [JSONValue], index: Int?, id: String, optional: Bool) throws(Failure) -> JSONValue? {
        if name == "." { return scopes.last }
        if name == "@number" {
            guard let index else { throw Failure(description: "\(id): '{{@number}}' outside an '{{#each}}'") }
            return .number(Double(index))
        }
        let parts = name.split(separator: ".").map(String.init)
        guard let first = parts.first, var value = scopes.reversed().lazy.compactMap({ $0[first] }).first else {
            if optional { return nil }
            throw Failure(description: "\(id): no value for '{{\(name)}}'")
        }
        for part in parts.dropFirst() {
            // `names.0`: an element of a list by its position.
            let element = Int(part).flatMap { position in value.arrayValue.flatMap { $0.indices.contains(position) ? $0[position] : nil } }
            guard let next = value[part] ?? element else {
                if optional { return nil }
                throw Failure(description: "\(id): no value for '{{\(name)}}'")
            }
            value = next
        }
        return value
    }

    private static func isPresent(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?, .bool(false)?: false
        case .string(let text)?: !text.isEmpty
        case .number(let number)?: number != 0
        case .array(let elements)?: !elements.isEmpty
        case .object(let fields)?: !fields.isEmpty
        case .bool(true)?: true
        }
    }
}
