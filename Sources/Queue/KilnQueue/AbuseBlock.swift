public import KilnCore

/// What a block keeps from submitting: an identity (as stored; abuse detection blocks quota subjects, which may be a
/// partner pool), a device (`Kiln-Device`), or a client address.
public enum BlockTarget: Sendable, Hashable {
    case identity(String)
    case device(String)
    case address(String)

    /// `identity`, `device` or `address`.
    public var kind: String {
        switch self {
        case .identity: "identity"
        case .device: "device"
        case .address: "address"
        }
    }

    public var value: String {
        switch self {
        case .identity(let value), .device(let value), .address(let value): value
        }
    }

    /// The target of `kind` and `value`; nil for a kind that is none of the three.
    public init?(kind: String, value: String) {
        switch kind {
        case "identity": self = .identity(value)
        case "device": self = .device(value)
        case "address": self = .address(value)
        default: return nil
        }
    }
}

/// A block in force: abuse detection's, on a quota subject, for the reason of the signal that tripped, or an
/// operator's, on an identity, a device or an address, for the reason the operator gave.
public struct AbuseBlock: Sendable, Equatable {
    public let tenant: TenantID
    public let target: BlockTarget
    public let reason: String
    /// How long the block still lasts.
    public let remaining: Duration
    /// Whether an operator set it (`kiln abuse block`, the console), rather than abuse detection.
    public let byOperator: Bool

    /// What is blocked: the subject, device or address.
    public var subject: String { target.value }
}
