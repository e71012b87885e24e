/// Kinds by name: what the API admits (`KindDefinition.catalog` in KilnHandlers lists Kiln's own).
public struct JobKindCatalog: Sendable {
    private var kinds: [String: JobKind]

    public init(_ kinds: [JobKind]) {
        self.kinds = Dictionary(kinds.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(name: String) -> JobKind? { kinds[name] }

    public var names: [String] { kinds.keys.sorted() }
}
