import KilnJSON

/// The JSON Schema of what a type's `init(from:)` accepts, read from the decoding rather than from data: a decoder that
/// answers every request with a placeholder and notes what was asked. A member read with `decode` is required; one read
/// with `decodeIfPresent` may be left out or null; a choice (an ``InputChoice``, or any type of cases that are read as
/// their raw strings or whole numbers) gives its raw values; an array, its element's schema.
/// So a synthesised decoder and one written by hand are described alike, and the schema cannot drift from either.
/// Members a type does not read are not refused (decoding ignores them), and the checks made after decoding
/// (`KindInput.validate()`, or a decoder's own check of a value it has read) are not in the schema.
enum InputSchemaRecorder {
    /// The schema of `type`'s JSON.
    static func schema<Value: Decodable>(of type: Value.Type) -> JSONValue {
        let root = Shape()
        // A check the type makes of a placeholder throws once every member before it is noted; what it noted stands.
        _ = try? root.placeholder(type)
        return root.schema
    }
}

/// What decoding one value asked of it.
private final class Shape {
    private enum Form {
        case unread
        case leaf(JSONValue)
        case object([String: (shape: Shape, required: Bool)])
        case array(Shape)
    }

    private var form = Form.unread
    /// The members whose null was asked about: Swift's own `decodeIfPresent` of a string, number or flag asks, then reads.
    private var nullChecked: Set<String> = []

    /// The value's schema, as far as it was read.
    var schema: JSONValue {
        switch form {
        case .unread:
            return .object([:])
        case .leaf(let schema):
            return schema
        case .object(let members):
            var schema: [String: JSONValue] = [
                "type": "object", "properties": .object(members.mapValues { $0.required ? $0.shape.schema : Self.nullable($0.shape.schema) }),
            ]
            let required = members.filter(\.value.required).keys.sorted()
            if !required.isEmpty { schema["required"] = .array(required.map(JSONValue.string)) }
            return .object(schema)
        case .array(let element):
            return .object(["type": "array", "items": element.schema])
        }
    }

    /// `schema`, also taking null (what `decodeIfPresent` reads as absent).
    private static func nullable(_ schema: JSONValue) -> JSONValue {
        guard case .object(var members) = schema, let type = members["type"] else { return schema }
        members["type"] = .array((type.arrayValue ?? [type]) + [.string("null")])
        if let words = members["enum"]?.arrayValue { members["enum"] = .array(words + [.null]) }
        return .object(members)
    }

    /// The shape of the member `name` of this object, required if any read of it was a `decode` not preceded by a
    /// check for null.
    func member(_ name: String, required: Bool) -> Shape {
        var members: [String: (shape: Shape, required: Bool)] = [:]
        if case .object(let read) = form { members = read }
        let shape = members[name]?.shape ?? Shape()
        members[name] = (shape, (required && !nullChecked.contains(name)) || members[name]?.required == true)
        form = .object(members)
        return shape
    }

    /// Notes that the member `name` may be null, or absent.
    func checkNull(_ name: String) {
        nullChecked.insert(name)
        _ = member(name, required: false)
    }

    /// The shape of this array's elements.
    func element() -> Shape {
        if case .array(let element) = form { return element }
        let element = Shape()
        form = .array(element)
        return element
    }

    /// Marks the value an object, keeping the members already read of it.
    func object() {
        if case .object = form { return }
        form = .object([:])
    }

    /// A value of `type` as decoding would make it, noting its schema: a choice's first case, an empty string, zero,
    /// false, or the type's own decoding of placeholders.
    func placeholder<Value: Decodable>(_ type: Value.Type) throws -> Value {
        switch type {
        case let choice as any (CaseIterable & RawRepresentable<String>).Type:
            let (words, first) = Self.cases(of: choice)
            form = .leaf(.object(["type": "string", "enum": .array(words.map(JSONValue.string))]))
            return try Self.cast(first, as: type)
        case let choice as any (CaseIterable & RawRepresentable<Int>).Type:
            let (numbers, first) = Self.cases(of: choice)
            form = .leaf(.object(["type": "integer", "enum": .array(numbers.map { .number(Double($0)) })]))
            return try Self.cast(first, as: type)
        case is String.Type:
            form = .leaf(.object(["type": "string"]))
            return try Self.cast("", as: type)
        case is Bool.Type:
            form = .leaf(.object(["type": "boolean"]))
            return try Self.cast(false, as: type)
        case let integer as any FixedWidthInteger.Type:
            form = .leaf(.object(["type": "integer"]))
            return try Self.cast(integer.zero, as: type)
        case let floating as any BinaryFloatingPoint.Type:
            form = .leaf(.object(["type": "number"]))
            return try Self.cast(floating.zero, as: type)
        default:
            return try Value(from: ShapeDecoder(shape: self))
        }
    }

    /// The raw values of a choice's cases, and its first case.
    private static func cases<Choice: CaseIterable & RawRepresentable>(of type: Choice.Type) -> ([Choice.RawValue], Choice?) {
        (type.allCases.map(\.rawValue), type.allCases.first)
    }

    private static func cast<Value>(_ value: Any?, as type: Value.Type) throws -> Value {
        guard let value = value as? Value else { throw Unrepresentable() }
        return value
    }

    /// A type this decoder has no placeholder for.
    struct Unrepresentable: Error {}
}

/// The decoder `Shape.placeholder` hands a type's `init(from:)`. It keeps no coding path: nothing it throws is shown.
private struct ShapeDecoder: Decoder {
    let shape: Shape
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        shape.object()
        return KeyedDecodingContainer(Keyed<Key>(shape: shape))
    }

    func unkeyedContainer() -> any UnkeyedDecodingContainer { Unkeyed(element: shape.element()) }

    func singleValueContainer() -> any SingleValueDecodingContainer { Single(shape: shape) }

    /// An object's members. `contains` says yes to every key, so a type that asks before reading still reads.
    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let shape: Shape
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { [] }

        func contains(_ key: Key) -> Bool { true }

        func decodeNil(forKey key: Key) -> Bool {
            shape.checkNull(key.stringValue)
            return false
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try shape.member(key.stringValue, required: true).placeholder(type)
        }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            // A placeholder the member's type refuses leaves it absent, as a caller may.
            try? shape.member(key.stringValue, required: false).placeholder(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) -> KeyedDecodingContainer<NestedKey> {
            ShapeDecoder(shape: shape.member(key.stringValue, required: true)).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedDecodingContainer {
            ShapeDecoder(shape: shape.member(key.stringValue, required: true)).unkeyedContainer()
        }

        func superDecoder() -> any Decoder { ShapeDecoder(shape: shape) }

        func superDecoder(forKey key: Key) -> any Decoder { ShapeDecoder(shape: shape.member(key.stringValue, required: true)) }
    }

    /// An array of one element, whose shape stands for every element's.
    private struct Unkeyed: UnkeyedDecodingContainer {
        let element: Shape
        var codingPath: [any CodingKey] { [] }
        var currentIndex = 0
        var count: Int? { 1 }
        var isAtEnd: Bool { currentIndex > 0 }

        mutating func decodeNil() -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            currentIndex += 1
            return try element.placeholder(type)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) -> KeyedDecodingContainer<NestedKey> {
            currentIndex += 1
            return ShapeDecoder(shape: element).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedDecodingContainer {
            currentIndex += 1
            return ShapeDecoder(shape: element).unkeyedContainer()
        }

        mutating func superDecoder() -> any Decoder {
            currentIndex += 1
            return ShapeDecoder(shape: element)
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let shape: Shape
        var codingPath: [any CodingKey] { [] }

        func decodeNil() -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try shape.placeholder(type) }
    }
}
