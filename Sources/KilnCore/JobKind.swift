/// What the API and the workers agree on about one kind of job: its input, class, deadline and retries.
/// The handler that runs it lives with the workers.
public struct JobKind: Sendable {
    /// `domain.action`, e.g. `diag.echo`.
    public let name: String
    public let jobClass: JobClass
    /// The hard deadline of one attempt, unless the input asks for a shorter one.
    public let timeout: Duration
    public let retry: RetryPolicy
    /// Diagnostic kinds are accepted only from tenants that enabled them.
    public let isDiagnostic: Bool
    private let check: @Sendable (JSONValue) throws -> Duration?
    private let lowestTierCheck: @Sendable (JSONValue) -> InputError?

    /// - Parameters:
    ///   - check: validates the input, throwing ``InputError``; may return a deadline shorter than `timeout`.
    ///   - lowestTierCheck: what in a valid input the tenant's lowest (free) tier may not ask for.
    public init(
        name: String,
        jobClass: JobClass,
        timeout: Duration,
        retry: RetryPolicy,
        isDiagnostic: Bool = false,
        check: @escaping @Sendable (JSONValue) throws -> Duration?,
        lowestTierCheck: @escaping @Sendable (JSONValue) -> InputError? = { _ in nil }
    ) {
        self.name = name
        self.jobClass = jobClass
        self.timeout = timeout
        self.retry = retry
        self.isDiagnostic = isDiagnostic
        self.check = check
        self.lowestTierCheck = lowestTierCheck
    }

    /// A kind whose input must decode as `Input`.
    public init<Input: KindInput>(
        name: String,
        input: Input.Type,
        jobClass: JobClass,
        timeout: Duration,
        retry: RetryPolicy,
        isDiagnostic: Bool = false
    ) {
        self.init(
            name: name, jobClass: jobClass, timeout: timeout, retry: retry, isDiagnostic: isDiagnostic,
            check: { json in
                let value: Input
                do {
                    value = try json.decode(as: Input.self)
                } catch {
                    throw InputError(decoding: error)
                }
                try value.validate()
                return value.requestedDeadline
            },
            lowestTierCheck: { json in (try? json.decode(as: Input.self))?.lowestTierRefusal })
    }

    /// What in `input` (already admitted) an identity of the tenant's lowest tier may not ask for; nil when it may.
    public func lowestTierRefusal(_ input: JSONValue) -> InputError? { lowestTierCheck(input) }

    /// Validates `input` and returns the deadline of one attempt.
    public func admit(_ input: JSONValue) throws(InputError) -> Duration {
        do {
            guard let requested = try check(input) else { return timeout }
            return min(requested, timeout)
        } catch {
            throw InputError(decoding: error)
        }
    }
}

/// A kind's typed input, checked beyond what decoding checks.
public protocol KindInput: Decodable, Sendable {
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
