/// The API dialects the simulator speaks; each renders errors and headers its own way.
enum Provider: Sendable {
    case anthropic
    case openAI
    case gemini
    case fal

    /// An id like the provider's own, deterministic in `seed`: `prefix` then `length` characters of `alphabet`.
    static func identifier(_ prefix: String, seed: String, length: Int = 24, alphabet: String = base62) -> String {
        var generator = SeededGenerator(seed: seed)
        let characters = Array(alphabet)
        return prefix + String((0..<length).map { _ in generator.pick(characters) })
    }

    static let base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    static let hex = "0123456789abcdef"

    /// The header that carries the request id, and the id itself.
    func requestID(sequence: UInt64) -> (header: String, value: String) {
        switch self {
        case .anthropic: ("request-id", Self.identifier("req_", seed: "request/\(sequence)"))
        case .openAI: ("x-request-id", Self.identifier("req_", seed: "request/\(sequence)", length: 32, alphabet: Self.hex))
        case .gemini: ("x-request-id", Self.identifier("", seed: "request/\(sequence)", length: 22))
        case .fal: ("x-fal-request-id", Self.identifier("", seed: "request/\(sequence)", length: 32, alphabet: Self.hex))
        }
    }
}
