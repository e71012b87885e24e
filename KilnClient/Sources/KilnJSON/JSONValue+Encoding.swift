import Foundation

extension JSONValue {
    /// `value` as a document, as `JSONEncoder` writes it: how a typed result becomes the ``canonicalJSON()`` that is
    /// stored and sent.
    public init(encoding value: some Encodable) throws {
        let data = try JSONEncoder().encode(value)
        guard let document = JSONValue.parse(String(decoding: data, as: UTF8.self)) else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "not a JSON document Kiln reads"))
        }
        self = document
    }
}
