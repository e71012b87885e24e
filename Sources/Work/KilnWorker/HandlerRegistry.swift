public import KilnCore

/// The kinds a worker serves: each kind's definition (its class, deadline and retry policy) with its handler.
public struct HandlerRegistry: Sendable {
    /// One kind a worker serves.
    public struct Entry: Sendable {
        public let kind: JobKind
        public let handler: any JobHandler

        public init(kind: JobKind, handler: any JobHandler) {
            self.kind = kind
            self.handler = handler
        }
    }

    private let entries: [String: Entry]

    public init(_ entries: [Entry]) {
        self.entries = Dictionary(entries.map { ($0.kind.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(kind: String) -> Entry? { entries[kind] }

    /// The names of the kinds served, sorted.
    public var names: [String] { entries.keys.sorted() }
}
