/// A script's reply read by field name: the positions come from the script's declared ``RedisReplyShape``.
/// An integer reply reads as a one-field array.
public struct RedisReply: Sendable {
    /// The tag of a tagged shape, nil for an untagged one.
    public let tag: String?
    private let values: ArraySlice<RedisValue>
    private let fields: [String]
    private let script: String

    init(_ reply: RedisValue, script: String, shapes: [RedisReplyShape]) throws {
        let values = try reply.checked().array ?? [reply]
        let tag = values.first?.string
        guard let shape = shapes.first(where: { $0.tag == nil || $0.tag == tag }) else {
            throw RedisError.server("ERR \(script) answered with an unknown reply \(tag ?? "")")
        }
        let fixed = values.dropFirst(shape.tag == nil ? 0 : 1)
        let itemCount = shape.itemFields.isEmpty ? 0 : (fixed.count - shape.fields.count) / shape.itemFields.count
        guard fixed.count >= shape.fields.count, fixed.count == shape.fields.count + itemCount * shape.itemFields.count else {
            throw RedisError.server("ERR \(script) answered \(shape.tag ?? "") with \(fixed.count) values")
        }
        self.init(tag: shape.tag, values: fixed, fields: shape.fields, script: script)
        self.items = (0..<itemCount).map { index in
            let start = fixed.startIndex + shape.fields.count + index * shape.itemFields.count
            return RedisReply(tag: nil, values: fixed[start..<start + shape.itemFields.count], fields: shape.itemFields, script: script)
        }
    }

    private init(tag: String?, values: ArraySlice<RedisValue>, fields: [String], script: String) {
        self.tag = tag
        self.values = values
        self.fields = fields
        self.script = script
        self.items = []
    }

    /// The items after the fixed fields, each read by the shape's item field names.
    public private(set) var items: [RedisReply]

    /// The value of the field `name`.
    public subscript(name: String) -> RedisValue {
        get throws {
            guard let index = fields.firstIndex(of: name) else {
                throw RedisError.server("ERR \(script) declares no reply field \(name)")
            }
            return values[values.startIndex + index]
        }
    }

    /// The field `name` as text.
    public func string(_ name: String) throws -> String {
        guard let value = try self[name].string else { throw malformed(name) }
        return value
    }

    /// The field `name` as text, nil when it is empty.
    public func text(_ name: String) throws -> String? {
        let value = try string(name)
        return value.isEmpty ? nil : value
    }

    /// The field `name` as an integer (an integer reply, or text that reads as one).
    public func int(_ name: String) throws -> Int64 {
        guard let value = try self[name].int else { throw malformed(name) }
        return value
    }

    /// The field `name` as an array of texts.
    public func strings(_ name: String) throws -> [String] {
        guard let values = try self[name].array else { throw malformed(name) }
        return values.compactMap(\.string)
    }

    /// The field `name` decoded by `parse`, which answers nil for a value it cannot read.
    public func decode<T>(_ name: String, _ parse: (String) -> T?) throws -> T {
        guard let value = parse(try string(name)) else { throw malformed(name) }
        return value
    }

    private func malformed(_ name: String) -> RedisError {
        RedisError.server("ERR \(script) answered a malformed \(name)")
    }
}
