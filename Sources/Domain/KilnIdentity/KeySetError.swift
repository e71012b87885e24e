/// A JSON Web Key Set or a secret that cannot verify tokens: not JSON, a key without `kid`, a private key, an
/// algorithm Kiln does not take, a secret too short.
public struct KeySetError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
