/// A failure of one of Kiln's backing services that tells "the service could not be reached" (down, restarting,
/// refusing connections, timing out) from "the service refused this request".
///
/// The first is nobody's fault and worth trying again shortly; the second is not. Each client classifies its own
/// failures, where it knows what they mean, and a caller that only needs the distinction (the API's one `503` with
/// `Retry-After`) matches this protocol instead of every client's error type.
public protocol BackingServiceError: Error {
    /// The service that failed.
    var service: BackingService { get }

    /// The service could not be reached, or the connection to it broke: treat it as unavailable, not as a refusal.
    var isUnavailable: Bool { get }
}
