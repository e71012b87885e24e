public import Foundation

/// Where Kiln is, who is calling, and how long a call may wait out the server's `Retry-After`.
public struct KilnConfiguration: Sendable {
    /// The API's address, such as `https://kiln.example.com`.
    public var baseURL: URL
    /// The tenant's API key, sent as `Authorization: Bearer`.
    public var apiKey: String
    /// The end user's credential, asked for before each request.
    public var credential: @Sendable () async throws -> Credential
    /// The device, sent as `Kiln-Device` with every request when set: its cooldowns apply, and with
    /// ``Credential/anonymousDevice`` it is the identity. Default: nil.
    public var device: String?
    /// How long one call may spend waiting to try again after a `429` or `503` (honouring `Retry-After`) or after a
    /// connection failure of a call that is safe to repeat. A wait that would not fit is not started: the refusal is
    /// thrown at once. Default: 30 seconds.
    public var retryBudget: Duration = .seconds(30)
    /// How long a request may go without a byte of its answer. The event stream's keep-alives come every 15 seconds.
    /// Default: 60 seconds.
    public var requestTimeout: Duration = .seconds(60)
    /// How often in a row the event stream may fail to reconnect before ``Kiln/events(of:)`` throws. Default: 8.
    public var maxReconnectAttempts = 8

    public init(baseURL: URL, apiKey: String, device: String? = nil, credential: @escaping @Sendable () async throws -> Credential) {
        self.baseURL = baseURL
        self.apiKey = apiKey
        self.device = device
        self.credential = credential
    }
}
