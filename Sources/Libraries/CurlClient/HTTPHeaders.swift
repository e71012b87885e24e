/// An ordered list of HTTP header fields.
///
/// Order and duplicates are kept as given; lookups by name ignore ASCII case.
public struct HTTPHeaders: Sendable, RandomAccessCollection, ExpressibleByDictionaryLiteral {
    /// One header field.
    public typealias Element = (name: String, value: String)

    private var fields: [Element]

    /// Creates an empty list.
    public init() {
        self.fields = []
    }

    /// Creates a list holding `fields` in the given order.
    public init(_ fields: [Element]) {
        self.fields = fields
    }

    /// Creates a list from a literal such as `["Content-Type": "application/json"]`, in source order.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.fields = elements.map { (name: $0.0, value: $0.1) }
    }

    public var startIndex: Int { self.fields.startIndex }
    public var endIndex: Int { self.fields.endIndex }
    public subscript(position: Int) -> Element { self.fields[position] }

    /// The value of the first field called `name`, compared without regard to ASCII case.
    public subscript(name: String) -> String? {
        self.fields.first { equalsIgnoringASCIICase($0.name, name) }?.value
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        self.fields.append((name: name, value: value))
    }
}

private func equalsIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
    func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
    return lhs.utf8.count == rhs.utf8.count && zip(lhs.utf8, rhs.utf8).allSatisfy { lowercased($0) == lowercased($1) }
}
