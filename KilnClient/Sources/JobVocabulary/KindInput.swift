/// A kind's typed input, checked beyond what decoding checks. Encodable too: the apps send it through KilnClient.
public protocol KindInput: Codable, Sendable {
    /// Throws ``InputError`` naming the field that is out of range.
    func validate() throws
    /// A deadline the input asks for, shorter than the kind's own.
    var requestedDeadline: Duration? { get }
    /// What in the input the tenant's lowest (free) tier may not ask for, naming the field; nil when it may.
    var lowestTierRefusal: InputError? { get }
}

extension KindInput {
    public func validate() throws {}
    public var requestedDeadline: Duration? { nil }
    public var lowestTierRefusal: InputError? { nil }
}
