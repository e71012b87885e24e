import KilnCore
import KilnProviders

extension JobFailure {
    /// What the queue should do with a job whose provider call failed: back-pressure reschedules it without spending
    /// an attempt, a refusal ends it as filtered, a retryable failure is retried with the kind's backoff, and anything
    /// else fails it for good.
    init(_ error: ProviderError) {
        let code = "provider_\(error.kind)"
        let message = error.description
        if error.isThrottling, error.isRetryable, let wait = error.retryAfter {
            self = .throttled(retryAfter: wait, code: code, message: message)
        } else if error.kind == .contentRefused {
            self = .contentFiltered(message: message)
        } else if error.isRetryable {
            self = .retryable(code: code, message: message)
        } else {
            self = .permanent(code: code, message: message)
        }
    }
}
