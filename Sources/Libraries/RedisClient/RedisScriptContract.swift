/// A Lua script's calling convention as one named, typed value: which keys and arguments it takes, in which order and
/// under which names, and the shapes of its replies.
///
/// A conforming type holds one call's values; its static field lists are the only place the positions are written.
/// They encode the call (``keyValues``, ``argumentValues``), bind `KEYS` and `ARGV` to local names in front of the
/// script's body (``luaBindings``), and read the reply (``RedisReply``), so Swift and Lua cannot disagree on an index.
/// The script's header comment states the same names (`-- KEYS:`, `-- ARGV:`, `-- ARGV each:`, `-- RETURNS …:`) for
/// its readers, and the tests read it back (`ScriptContractTests`) to hold the two together.
public protocol RedisScriptContract: Sendable {
    /// One entry of the list of items a script takes after its fixed arguments; `Never` when it takes none.
    associatedtype Item = Never

    /// The script's name, the name of its `.lua` file.
    static var scriptName: String { get }
    /// The keys, in `KEYS` order.
    static var keys: [RedisScriptField<Self>] { get }
    /// The fixed arguments, in `ARGV` order.
    static var arguments: [RedisScriptField<Self>] { get }
    /// Each item's arguments, repeated after the fixed ones once per item.
    static var itemArguments: [RedisScriptField<Item>] { get }
    /// The shapes the script may answer with.
    static var replies: [RedisReplyShape] { get }

    /// This call's items.
    var items: [Item] { get }
}

extension RedisScriptContract where Item == Never {
    public static var itemArguments: [RedisScriptField<Never>] { [] }
    public var items: [Never] { [] }
}

extension RedisScriptContract {
    // Inlinable, so each script's call is written by code specialised to it, without a generic witness call per field.

    /// This call's `KEYS`.
    @inlinable
    public var keyValues: [String] { Self.keys.map { $0.encode(self) } }

    /// This call's `ARGV`: the fixed arguments, then each item's.
    @inlinable
    public var argumentValues: [String] {
        var values = Self.arguments.map { $0.encode(self) }
        values.reserveCapacity(values.count + items.count * Self.itemArguments.count)
        for item in items {
            for field in Self.itemArguments { values.append(field.encode(item)) }
        }
        return values
    }

    /// This call of `script` (whose source must begin with ``luaBindings``).
    @inlinable
    public func call(_ script: RedisScript) -> RedisScriptCall {
        RedisScriptCall(script, keys: keyValues, arguments: argumentValues)
    }

    /// Reads a reply of this script.
    public static func read(_ reply: RedisValue) throws -> RedisReply {
        try RedisReply(reply, script: scriptName, shapes: replies)
    }

    public static var keyNames: [String] { keys.map(\.name) }
    public static var argumentNames: [String] { arguments.map(\.name) }
    public static var itemArgumentNames: [String] { itemArguments.map(\.name) }

    /// Lua that binds each key and fixed argument to a local of its name and, for a script that takes items,
    /// defines `each_item()`, an iterator over the items' arguments in their declared order:
    /// `for id, attempt in each_item() do … end`.
    public static var luaBindings: String {
        var lines: [String] = []
        func bind(_ names: [String], to table: String, from first: Int) {
            guard !names.isEmpty else { return }
            let values = names.indices.map { "\(table)[\(first + $0)]" }
            lines.append("local \(names.joined(separator: ", ")) = \(values.joined(separator: ", "))")
        }
        bind(keyNames, to: "KEYS", from: 1)
        bind(argumentNames, to: "ARGV", from: 1)
        let width = itemArgumentNames.count
        if width > 0 {
            let values = (0..<width).map { $0 == 0 ? "ARGV[i]" : "ARGV[i + \($0)]" }
            lines.append(
                """
                local function each_item()
                  local i = \(arguments.count + 1 - width)
                  return function()
                    i = i + \(width)
                    if i > #ARGV then return nil end
                    return \(values.joined(separator: ", "))
                  end
                end
                """)
        }
        return lines.joined(separator: "\n")
    }
}

/// One key or argument of a script: its name, and how a call's value of it is written.
public struct RedisScriptField<Call>: Sendable {
    public let name: String
    @usableFromInline let encode: @Sendable (Call) -> String

    public init(_ name: String, _ encode: @escaping @Sendable (Call) -> String) {
        self.name = name
        self.encode = encode
    }
}

/// One shape of a script's reply: an array whose first element is `tag` (when it has one), then `fields`, then, when
/// `itemFields` is not empty, a run of them per item.
public struct RedisReplyShape: Sendable, Equatable {
    public let tag: String?
    public let fields: [String]
    public let itemFields: [String]

    public init(tag: String? = nil, fields: [String], itemFields: [String] = []) {
        self.tag = tag
        self.fields = fields
        self.itemFields = itemFields
    }
}
