/// Every kind Kiln knows, by name.
public struct JobKindCatalog: Sendable {
    private var kinds: [String: JobKind]

    public init(_ kinds: [JobKind]) {
        self.kinds = Dictionary(kinds.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
    }

    public subscript(name: String) -> JobKind? { kinds[name] }

    public var names: [String] { kinds.keys.sorted() }

    /// The diagnostic kinds used by tests and benchmarks; tenants enable them explicitly.
    public static let diagnostics: [JobKind] = [
        JobKind(
            name: "diag.echo", input: EchoInput.self, jobClass: .io, timeout: .seconds(30),
            retry: .exponentialJitter(maxAttempts: 3), isDiagnostic: true),
        JobKind(
            name: "diag.sleep", input: SleepInput.self, jobClass: .io, timeout: .seconds(3700),
            retry: .exponentialJitter(maxAttempts: 3), isDiagnostic: true),
        JobKind(
            name: "diag.fail", input: FailInput.self, jobClass: .io, timeout: .seconds(30),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .milliseconds(200), maxDelay: .seconds(5)), isDiagnostic: true),
        JobKind(
            name: "diag.generate", input: GenerateInput.self, jobClass: .io, timeout: .seconds(300),
            retry: .exponentialJitter(maxAttempts: 3, baseDelay: .seconds(1), maxDelay: .seconds(30)), isDiagnostic: true),
    ]

    /// The apps' kinds.
    public static let products: [JobKind] = [
        // Rendering takes seconds of both cores per minute of video; a crash of the encoder is worth one more try.
        JobKind(
            name: "video.chat_export", input: ChatExportInput.self, jobClass: .cpu, timeout: .seconds(900),
            retry: .exponentialJitter(maxAttempts: 2, baseDelay: .seconds(2), maxDelay: .seconds(30))),
    ]

    /// All kinds this build serves.
    public static let standard = JobKindCatalog(diagnostics + products)
}
