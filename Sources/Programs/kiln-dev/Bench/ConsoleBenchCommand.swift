import ArgumentParser
import CurlClient
import Foundation
import KilnCommandLine
import KilnCore
import KilnQueue
import KilnStore
import PostgresClient

/// `kiln-dev bench console`: the console's pages and filters beside a million job records and a hundred thousand jobs
/// that have not ended (queued on a paused tenant, so nothing runs them): each page fetched over HTTP from a `kiln
/// console` process, signed in, as a browser would; the median and the worst time of each.
struct ConsoleBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "console", abstract: "The console's page times beside a million records and 100,000 live jobs.")

    @OptionGroup var connections: ConnectionOptions
    @Option(help: "Job records in PostgreSQL.") var records = 1_000_000
    @Option(help: "Jobs queued in Redis that have not ended.") var live = 100_000
    @Option(help: "Fetches of each page.") var repeats = 20
    @Option(help: "Port of the console the benchmark starts.") var port = 8797
    @Option(help: "Where the child processes log.") var logDirectory = ".kiln/logs"

    private static let kinds = ["diag.echo", "diag.sleep", "text.generate", "image.generate", "story.generate"]

    func run() async throws {
        try FileManager.default.createDirectory(atPath: logDirectory, withIntermediateDirectories: true)
        var options = connections
        let suffix = UUID().uuidString.prefix(8).lowercased()
        options.namespace = "bench-\(suffix)"
        options.schema = "bench_console_\(suffix)"
        let stack = BenchStack(connections: options, port: port, logDirectory: logDirectory)
        try await Runtime.with(options) { runtime in
            _ = try await runtime.database.execute("CREATE SCHEMA \(options.schema)")
            _ = try await Migrator(pool: runtime.database, directory: URL(fileURLWithPath: "migrations", isDirectory: true)).migrate()
            try await runtime.namespace.prepare()
            let tenants = try await Self.tenants(runtime)
            let started = ContinuousClock.now
            try await Self.writeRecords(records, tenants: tenants, runtime)
            _ = try await runtime.database.execute("ANALYZE jobs")
            try await Self.enqueue(live, tenant: tenants[0], runtime)
            print(String(format: "%d records and %d live jobs written in %.0f s", records, live, (ContinuousClock.now - started).seconds))
            let token = try await OperatorStore(pool: runtime.database).create(name: "bench", role: .operator).token
            let console = try ChildProcess(
                stack.childArguments("console", namespace: options.namespace) + ["--port", String(port)], logTo: "\(logDirectory)/bench-console.log")
            try await stack.stopping([console]) {
                let base = "http://127.0.0.1:\(port)"
                guard try await APIReadiness.wait(for: base, path: "/console/login", within: .seconds(20), every: .milliseconds(100)) else {
                    throw ValidationError("the console did not start; see \(logDirectory)/bench-console.log")
                }
                let http = try HTTPClient()
                defer { http.shutdown() }
                let cookie = try await Self.signIn(http, base: base, token: token)
                for (name, path) in Self.pages(tenants) {
                    var times: [Double] = []
                    var status = 0
                    for _ in 0..<repeats {
                        let clock = ContinuousClock.now
                        let response = try await http.execute(
                            HTTPRequest(method: "GET", url: base + path, headers: ["Cookie": "kiln_console=\(cookie)"]), timeout: .seconds(60))
                        times.append((ContinuousClock.now - clock).seconds * 1000)
                        status = response.status
                    }
                    times.sort()
                    print(String(format: "%@ (%@): %d, median %.1f ms, worst %.1f ms", name, path, status, times[times.count / 2], times.last ?? 0))
                }
            }
            try await runtime.namespace.deleteAll()
            _ = try await runtime.database.execute("DROP SCHEMA \(options.schema) CASCADE")
        }
    }

    /// Each page and filter an operator uses, by name.
    private static func pages(_ tenants: [Tenant]) -> [(String, String)] {
        let busy = tenants[0].id.rawValue
        let quiet = tenants[2].id.rawValue
        return [
            ("overview", "/console"),
            ("overview, 24 h", "/console?window=24h"),
            ("jobs, no filter", "/console/jobs"),
            ("jobs, tenant", "/console/jobs?tenant=\(quiet)"),
            ("jobs, identity", "/console/jobs?identity=user-77"),
            ("jobs, kind", "/console/jobs?kind=story.generate"),
            ("jobs, state failed", "/console/jobs?state=failed"),
            ("jobs, tenant and state dead", "/console/jobs?tenant=\(quiet)&state=dead"),
            ("jobs, state failed since a day", "/console/jobs?state=failed&from=\(Self.dayAgo)"),
            ("jobs, queued of a tenant", "/console/jobs?tenant=\(busy)&state=queued"),
            // The busy tenant's io jobs of normal priority are the second of its ready lists.
            ("jobs, queued, 20th page", "/console/jobs?tenant=\(busy)&state=queued&live=1.950"),
            ("jobs, queued, deep in the list", "/console/jobs?tenant=\(busy)&state=queued&live=1.90000"),
            ("jobs, running", "/console/jobs?state=running"),
            ("dead letters", "/console/dead"),
            ("dead letters, tenant", "/console/dead?tenant=\(quiet)"),
            ("tenants", "/console/tenants"),
            ("a tenant", "/console/tenants/\(busy)"),
            ("abuse", "/console/blocks"),
            ("audit", "/console/audit"),
        ]
    }

    private static var dayAgo: String {
        Date().addingTimeInterval(-86_400).formatted(.iso8601.year().month().day().dateSeparator(.dash))
    }

    /// Three tenants: the first busy (its jobs queued and paused), the last quiet.
    private static func tenants(_ runtime: Runtime) async throws -> [Tenant] {
        let store = TenantStore(pool: runtime.database)
        var tenants: [Tenant] = []
        for name in ["bench-busy", "bench-mid", "bench-quiet"] {
            guard let id = TenantID(validating: name) else { throw ValidationError("\(name) is not a tenant id") }
            tenants.append(try await store.create(id: id, name: name, weight: 1, runningCap: 1_000_000, diagnostics: true))
        }
        return tenants
    }

    /// Records over the last 30 days: the busy tenant half of them, five kinds, one in fifty not succeeded.
    private static func writeRecords(_ count: Int, tenants: [Tenant], _ runtime: Runtime) async throws {
        let identities = (0..<10_000).compactMap { Identity(validating: "user-\($0)") }
        let states: [JobState] = [.failed, .dead, .cancelled]
        let store = JobStore(pool: runtime.database)
        let now = Date()
        for start in stride(from: 0, to: count, by: 5_000) {
            let batch = (start..<min(start + 5_000, count)).map { n -> JobRecord in
                let created = now.addingTimeInterval(-Double(count - n) * 30 * 86_400 / Double(count))
                let tenant = n % 2 == 0 ? tenants[0] : n % 10 == 1 ? tenants[2] : tenants[1]
                return JobRecord(
                    id: JobID(shard: 0, milliseconds: Int64(created.timeIntervalSince1970 * 1000)), tenant: tenant.id,
                    identity: identities[n % identities.count], kind: kinds[n % kinds.count], priority: .normal,
                    state: n % 50 == 0 ? states[(n / 50) % states.count] : .succeeded, attempt: 1, maxAttempts: 3, input: "{}",
                    result: n % 50 == 0 ? nil : #"{"ok":true}"#, createdAt: created, finishedAt: created)
            }
            _ = try await store.record(batch)
        }
    }

    /// Jobs queued on the busy tenant, which is paused first so that none runs.
    private static func enqueue(_ count: Int, tenant: Tenant, _ runtime: Runtime) async throws {
        _ = try await runtime.namespace.admin.pause(.tenant(tenant.id))
        let identities = (0..<1_000).compactMap { Identity(validating: "user-\($0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for slice in 0..<16 {
                group.addTask {
                    for n in stride(from: slice, to: count, by: 16) {
                        _ = try await runtime.namespace.queue.enqueue(
                            Submission(
                                tenant: tenant.id, identity: identities[n % identities.count], kind: kinds[n % kinds.count], jobClass: .io,
                                priority: .normal, input: "{}", maxAttempts: 3, timeout: .seconds(30), runningCap: 1_000_000, weight: 1))
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// A session cookie for the operator's token, as the login form gets one.
    private static func signIn(_ http: HTTPClient, base: String, token: String) async throws -> String {
        let body = "token=" + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
        let response = try await http.execute(
            HTTPRequest(
                method: "POST", url: base + "/console/login", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Array(body.utf8)), timeout: .seconds(30))
        guard let cookie = response.headers.first(where: { $0.name.lowercased() == "set-cookie" && $0.value.hasPrefix("kiln_console=") })
        else { throw ValidationError("signing in answered \(response.status) and set no cookie") }
        return String(cookie.value.dropFirst("kiln_console=".count).prefix { $0 != ";" })
    }
}
