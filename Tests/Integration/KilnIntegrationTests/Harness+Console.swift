import CurlClient
import Foundation
import KilnAssembly
import KilnConsole
import KilnCore
import KilnJSON
import KilnQueue
import KilnStore
import Locking
import PostgresClient
import Testing

extension Harness {
    /// Starts `kiln console` in-process on the harness's namespace, schema and objects, on a free port; returns its
    /// base URL.
    func startConsole(_ configure: (inout ConsoleConfiguration) -> Void = { _ in }) async throws -> String {
        var configuration = ConsoleConfiguration()
        configure(&configuration)
        configuration.port = 0
        let parts = assembly()
        let dependencies = ConsoleDependencies(
            namespace: parts.namespace, database: parts.database, objects: parts.objects, policies: policies.withLock { $0 })
        let port = PortBox()
        run(try await ConsoleServer.application(dependencies: dependencies, configuration: configuration, logger: logger) { port.set($0) })
        return "http://127.0.0.1:\(try await port.wait())"
    }

    /// A new operator with `role`, as `kiln operator create` makes one; returns its token.
    func operatorToken(_ name: String, role: Operator.Role, tenants: [TenantID]? = nil) async throws -> String {
        try await OperatorStore(pool: database).create(name: name, role: role, tenants: tenants).token
    }

    /// Enqueues a `diag.echo` of `tenant` straight into Redis, as the API would, claimable after `delay`.
    func enqueueEcho(
        tenant: TenantID, identity: String, jobClass: JobClass = .io, priority: Priority = .normal, delay: Duration = .zero
    ) async throws -> JobID {
        let outcome = try await queue.enqueue(
            Submission(
                tenant: tenant, identity: try #require(Identity(validating: identity)), kind: "diag.echo", jobClass: jobClass, priority: priority,
                input: "{}", maxAttempts: 3, timeout: .seconds(30), delay: delay, runningCap: 1_000, weight: 1))
        guard case .created(let id, _) = outcome else { throw TestFailure("not enqueued: \(outcome)") }
        return id
    }

    /// Ends every console session now, as the passing of their expiry would.
    func expireConsoleSessions() async throws {
        _ = try await database.execute("UPDATE operator_sessions SET expires_at = now() - interval '1 minute'")
    }

    /// The outcomes the console's audit log holds for `action`, oldest first.
    func consoleAuditOutcomes(_ action: String) async throws -> [String] {
        try await database.query("SELECT outcome FROM console_audit WHERE action = $1 ORDER BY id", [action]).map {
            try $0.decode("outcome", as: String.self)
        }
    }

    /// A dead letter, as the console lists it: the tenant `name` (with diagnostics) submits a `diag.fail` that fails
    /// for good on its first attempt and succeeds on any later one, as a replay runs it.
    func deadJob(tenant name: String) async throws -> (id: JobID, client: Client) {
        let client = try await tenant(name)
        startWorker()
        _ = try await startAPI()
        let id = try await submit(#"{"kind": "diag.fail", "input": {"times": 1, "permanent": true}}"#, as: client)
        guard case .string("failed")? = try await awaitFinished(id, as: client)["status"] else { throw TestFailure("job \(id) did not fail") }
        // The dead letters are listed from the job's record, which the worker writes as the job ends.
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if try await JobSearch(pool: database).job(id)?.finishedAt != nil { return (id, client) }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestFailure("job \(id) was not recorded within a minute")
    }

    /// Whether the dead letter ``deadJob(tenant:)`` made is still as it died: failed after its one attempt,
    /// never replayed (a replay that failed again would have run a second).
    func isUntouchedDeadLetter(_ id: JobID) async throws -> Bool {
        guard let job = try await queue.snapshots([id]).first ?? nil else { return false }
        return job.state == .failed && job.attempt == 1
    }
}

/// The console over plain HTTP, as a browser that follows no redirects sees it: signed in with one session's cookie,
/// or with none.
struct ConsoleClient {
    let http: HTTPClient
    let base: String
    /// The session cookie's value; nil before signing in.
    var session: String?
    /// The client's address as a proxy would pass it on (`X-Forwarded-For`), for a console that trusts that header.
    var forwardedFor: String?

    /// Posts the sign-in form with `token`, from a page of `origin` when given.
    func signIn(token: String, next: String = "/console", origin: String? = nil) async throws -> HTTPResponse {
        try await post("/console/login", ["token": token, "next": next], origin: origin)
    }

    /// Signs in with `token` and keeps the session's cookie.
    static func signedIn(_ http: HTTPClient, base: String, token: String) async throws -> ConsoleClient {
        var client = ConsoleClient(http: http, base: base)
        let response = try await client.signIn(token: token)
        try #require(response.status == 303 || response.status == 302, "signing in answered \(response.status)")
        client.session = try #require(Self.cookie(response)?.value, "signing in set no cookie")
        return client
    }

    func get(_ path: String) async throws -> HTTPResponse {
        try await http.execute(HTTPRequest(method: "GET", url: base + path, headers: headers()), timeout: .seconds(60))
    }

    /// Posts `form` as `application/x-www-form-urlencoded`, a field per pair (checkboxes repeat a name).
    func post(_ path: String, _ form: KeyValuePairs<String, String>, origin: String? = nil) async throws -> HTTPResponse {
        let allowed = CharacterSet.alphanumerics
        let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        var headers = headers()
        headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if let origin { headers.add(name: "Origin", value: origin) }
        return try await http.execute(HTTPRequest(method: "POST", url: base + path, headers: headers, body: Array(body.utf8)), timeout: .seconds(60))
    }

    /// The CSRF token the page at `path` carries in its forms.
    func csrfToken(on path: String) async throws -> String {
        let page = Self.text(try await get(path))
        return try #require(Self.csrfToken(in: page), "no CSRF token on \(path)")
    }

    /// The value of the first hidden `csrf` field in `page`.
    static func csrfToken(in page: String) -> String? {
        guard let field = page.range(of: #"name="csrf" value=""#) else { return nil }
        return page[field.upperBound...].prefix { $0 != "\"" }.description
    }

    static func text(_ response: HTTPResponse) -> String {
        String(decoding: response.body, as: UTF8.self)
    }

    /// The session cookie `response` sets: its value and its attributes, as `Set-Cookie` lists them.
    static func cookie(_ response: HTTPResponse) -> (value: String, attributes: [String])? {
        guard let header = response.headers.first(where: { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("kiln_console=") })
        else { return nil }
        let parts = header.value.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        return (String(parts[0].dropFirst("kiln_console=".count)), Array(parts.dropFirst()))
    }

    private func headers() -> HTTPHeaders {
        var headers = HTTPHeaders()
        if let session { headers.add(name: "Cookie", value: "kiln_console=\(session)") }
        if let forwardedFor { headers.add(name: "X-Forwarded-For", value: forwardedFor) }
        return headers
    }
}
