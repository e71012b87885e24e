public import KilnJSON

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
    /// The JSON Schema of what the input's type decodes: its members, which of them are required, their types and the
    /// words of each choice. `openapi.json` describes each kind's input with it; the checks of `validate()` (lengths,
    /// ranges, ids) are not in it.
    public let inputSchema: JSONValue
    private let check: @Sendable (JSONValue) throws -> (deadline: Duration?, lowestTierRefusal: InputError?)

    /// - Parameter check: validates the input, throwing ``InputError``; returns a deadline shorter than `timeout` if
    ///   the input asks for one, and what in the input the tenant's lowest (free) tier may not ask for.
    private init(
        name: String,
        jobClass: JobClass,
        timeout: Duration,
        retry: RetryPolicy,
        isDiagnostic: Bool,
        inputSchema: JSONValue,
        check: @escaping @Sendable (JSONValue) throws -> (deadline: Duration?, lowestTierRefusal: InputError?)
    ) {
        self.name = name
        self.jobClass = jobClass
        self.timeout = timeout
        self.retry = retry
        self.isDiagnostic = isDiagnostic
        self.inputSchema = inputSchema
        self.check = check
    }

    /// A kind whose input must decode as `Input`, which gives its ``inputSchema``.
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
            inputSchema: InputSchemaRecorder.schema(of: Input.self)
        ) { json in
            let value: Input
            do {
                value = try json.decode(as: Input.self)
            } catch {
                throw InputError(decoding: error)
            }
            try value.validate()
            return (value.requestedDeadline, value.lowestTierRefusal)
        }
    }

    /// What admitting an input found: the deadline of one attempt, and what in the input an identity of the tenant's
    /// lowest tier may not ask for (nil when it may), decided once the caller's tier is known.
    public struct Admission: Sendable {
        public let deadline: Duration
        public let lowestTierRefusal: InputError?
    }

    /// Validates `input`: its attempt's deadline, and what the lowest tier may not have of it.
    public func admit(_ input: JSONValue) throws(InputError) -> Admission {
        do {
            let (requested, refusal) = try check(input)
            return Admission(deadline: requested.map { min($0, timeout) } ?? timeout, lowestTierRefusal: refusal)
        } catch {
            throw InputError(decoding: error)
        }
    }
}
