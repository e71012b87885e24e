import CurlClient
import Foundation
import KilnAPI
import KilnAssembly
import KilnCore
import KilnHandlers
import KilnIdentity
import KilnJSON
import KilnKeys
import KilnPolicy
import KilnPrivacy
import KilnQueue
import KilnStore
import KilnWorker
import Logging
import PostgresClient
import RedisClient
import ServiceLifecycle
import Locking
import Testing

/// One test's world: its own Redis namespace and PostgreSQL schema on the real servers, an API node on a free
/// port, and in-process workers, all torn down afterwards.
final class Harness: Sendable {
    struct Client: Sendable {
        let tenant: Tenant
        let key: String
    }

    let namespace = "test-\(UUID().uuidString.prefix(8).lowercased())"
    let schema = "test_\(UUID().uuidString.prefix(8).lowercased())"
    let redis: RedisPool
    let database: PostgresPool
    /// The test's Redis namespace.
    let redisNamespace: RedisNamespace
    /// The queue on it.
    var queue: JobQueue { redisNamespace.queue }
    let objects: ObjectStore
    /// The object backend the API node and in-process workers use (set before starting them); nil is ``objects``,
    /// the local directory.
    let objectBackend = Locked<(any ObjectBackend)?>(nil)
    let http: HTTPClient
    let logger = Logger(label: "kiln.test")
    private let services = Locked<[(group: ServiceGroup, task: Task<Void, any Error>)]>([])
    /// The tenants' policies the API node starts with (set before ``startAPI(_:)``).
    let policies = Locked(PolicySet.none)
    /// The policies' identity verifiers, built with them.
    let identities = Locked(IdentityVerifierSet.none)
    /// Now, as the API node sees it; nil is the real clock.
    let now = Locked<Date?>(nil)
    private let apiPort = PortBox()

    /// On the test servers, or the Redis and PostgreSQL at the URLs given.
    init(queueConfiguration: QueueConfiguration = QueueConfiguration(), redisURL: String? = nil, databaseURL: String? = nil) async throws {
        guard let redisConfiguration = RedisConfiguration(url: try redisURL ?? TestServers.redisURL) else {
            throw TestFailure("\(try redisURL ?? TestServers.redisURL) is not a redis:// URL")
        }
        redis = RedisPool(configuration: redisConfiguration)
        var databaseConfiguration = PostgresConfiguration(url: try databaseURL ?? TestServers.databaseURL)
        databaseConfiguration.searchPath = schema
        database = try PostgresPool(configuration: databaseConfiguration)
        var configuration = queueConfiguration
        configuration.namespace = namespace
        if configuration.shards == 1, let shards = TestServers.redisShards { configuration.shards = shards }
        redisNamespace = try RedisNamespace(redis: redis, configuration: configuration)
        objects = ObjectStore(root: FileManager.default.temporaryDirectory.appendingPathComponent(namespace, isDirectory: true))
        http = try HTTPClient()
        try await redisNamespace.prepare()
        let migrator = Migrator(pool: database, directory: TestServers.repositoryRoot.appendingPathComponent("migrations"))
        try await MigrationGate.inTurn { _ = try await migrator.migrate() }
    }

    /// The keys of the shard that holds a job.
    func keys(of job: JobID) throws -> KeySpace {
        try #require(redisNamespace.shards.keys(of: job), "\(job) names no shard of this namespace")
    }

    /// The keys of the shard that holds an identity's or a quota subject's work.
    func keys(tenant: String, owner: String) throws -> KeySpace {
        redisNamespace.shards.keys(tenant: try #require(TenantID(validating: tenant)), owner: owner)
    }

    /// A tenant with diagnostics enabled and a key for it.
    func tenant(_ name: String, weight: Int = 1, runningCap: Int = 100) async throws -> Client {
        let tenant = try await TenantStore(pool: database).create(
            id: try #require(TenantID(validating: name)), name: name, weight: weight, runningCap: runningCap, diagnostics: true)
        return Client(tenant: tenant, key: try await APIKeyStore(pool: database).create(tenant: tenant.id).key)
    }

    /// Policies from JSON text, in the format of `deploy/policies.json`; relative paths in them start at `directory`
    /// (the repository's root unless given), and HS256 secrets are read from `environment`.
    func usePolicies(_ json: String, directory: URL = TestServers.repositoryRoot, environment: [String: String] = [:]) throws {
        let parsed = try PolicySet.parse(Data(json.utf8))
        let verifiers = try IdentityVerifierSet.load(policies: parsed, directory: directory, environment: environment)
        policies.withLock { $0 = parsed }
        identities.withLock { $0 = verifiers }
    }

    /// The parts the API node and the workers are built from: the test's namespace (or `redis`), schema and objects.
    func assembly(redis: RedisNamespace? = nil) -> Assembly {
        Assembly(namespace: redis ?? redisNamespace, database: database, objects: objectBackend.withLock { $0 } ?? objects)
    }

    /// What the API node talks to: the test's namespace, or `redis` when given (one whose Redis does not answer).
    func dependencies(redis: RedisNamespace? = nil) -> APIDependencies {
        assembly(redis: redis).apiDependencies(
            policies: policies.withLock { $0 }, identities: identities.withLock { $0 },
            clock: { [weak self] in self?.now.withLock { $0 } ?? Date() }, metricsText: { "" })
    }

    /// Starts the API node; returns its base URL.
    @discardableResult
    func startAPI(_ configure: (inout APIConfiguration) -> Void = { _ in }) async throws -> String {
        var configuration = APIConfiguration()
        configure(&configuration)
        return try await startAPI(over: dependencies(), configuration: configuration, port: apiPort)
    }

    /// Starts an API node of its own over `dependencies` (this harness's with some replaced, such as a server that
    /// does not answer), beside the one ``startAPI(_:)`` starts; returns its base URL.
    func startAPI(over dependencies: APIDependencies) async throws -> String {
        try await startAPI(over: dependencies, configuration: APIConfiguration(), port: PortBox())
    }

    private func startAPI(over dependencies: APIDependencies, configuration: APIConfiguration, port: PortBox) async throws -> String {
        var configuration = configuration
        configuration.port = 0
        run(APIServer.application(dependencies: dependencies, configuration: configuration, logger: logger) { port.set($0) })
        return "http://127.0.0.1:\(try await port.wait())"
    }

    var apiURL: String {
        get throws { "http://127.0.0.1:\(try #require(apiPort.value, "start the API first"))" }
    }

    /// Starts an in-process worker with the diagnostic handlers, or `handlers` when given.
    func startWorker(handlers: HandlerRegistry = .diagnostics, _ configure: (inout WorkerConfiguration) -> Void = { _ in }) {
        var configuration = WorkerConfiguration()
        configuration.id = "test-worker-\(UUID().uuidString.prefix(6))"
        configuration.concurrency = [.io: 16, .cpu: 2]
        configuration.renewInterval = .milliseconds(200)
        configuration.sweepInterval = .milliseconds(300)
        configure(&configuration)
        run(assembly().worker(handlers: handlers, configuration: configuration, logger: logger))
    }

    /// Runs `service` until the harness is torn down. A service whose graceful shutdown takes longer than 30 s is
    /// cancelled: an API node waits for its requests to end, and one following a job whose worker has stopped would wait
    /// for ever, so a failing test would hang the suite instead of failing.
    func run(_ service: some Service) {
        var configuration = ServiceGroupConfiguration(services: [service], logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: configuration)
        let task = Task { try await group.run() }
        services.withLock { $0.append((group, task)) }
    }

    /// The `kiln` program (or `kiln-dev`, the development tools) with `arguments`, on this harness's Redis namespace,
    /// PostgreSQL schema and object directory, on the test servers or the Redis and PostgreSQL at the URLs given.
    func kilnCommand(_ arguments: [String], program: String = "kiln", redisURL: String? = nil, databaseURL: String? = nil) throws -> [String] {
        [try TestServers.executable(program).path] + arguments + [
            "--redis-url", try redisURL ?? TestServers.redisURL, "--database-url", try databaseURL ?? TestServers.databaseURL,
            "--namespace", namespace, "--redis-shards", String(redisNamespace.shards.count),
            "--tenant-shards", redisNamespace.configuration.tenantShards.map { "\($0.key)=\($0.value)" }.joined(separator: ","),
            "--schema", schema, "--object-root", objects.root.path,
        ]
    }

    /// A request with the client's key and identity, to the API node at `base`, or the one ``startAPI(_:)`` started.
    func request(
        _ method: String, _ path: String, as client: Client, identity: String = "user-1", body: String? = nil,
        headers extra: [(String, String)] = [], base: String? = nil
    ) throws -> HTTPRequest {
        var headers: HTTPHeaders = ["Authorization": "Bearer \(client.key)", "Kiln-Identity": identity, "Content-Type": "application/json"]
        for (name, value) in extra { headers.add(name: name, value: value) }
        let base = try base ?? apiURL
        return HTTPRequest(method: method, url: base + path, headers: headers, body: body.map { Array($0.utf8) })
    }

    /// - Throws: a ``TestFailure`` that names the request, when it fails or has no answer within 30 s: a test sends
    ///   several, and the client's error alone does not say which.
    func send(_ request: HTTPRequest) async throws -> (status: Int, json: JSONValue?, response: HTTPResponse) {
        let started = ContinuousClock.now
        let response: HTTPResponse
        do {
            response = try await http.execute(request, timeout: .seconds(30))
        } catch {
            throw TestFailure("\(request.method) \(request.url) failed after \(ContinuousClock.now - started): \(error)")
        }
        return (response.status, JSONValue.parse(String(decoding: response.body, as: UTF8.self)), response)
    }

    /// Submits a job over HTTP and returns its id.
    func submit(_ body: String, as client: Client, identity: String = "user-1") async throws -> JobID {
        let (status, json, _) = try await send(try request("POST", "/v1/jobs", as: client, identity: identity, body: body))
        try #require(status == 202, "submission answered \(status): \(String(describing: json))")
        guard case .string(let text)? = json?["id"] else { throw TestFailure("no job id") }
        return try #require(JobID(validating: text))
    }

    /// Polls the job over HTTP until it reaches a terminal state; the limit is generous, since the suites share two
    /// cores and it only bounds a hung test.
    func awaitFinished(_ id: JobID, as client: Client, identity: String = "user-1", within limit: Duration = .seconds(120)) async throws -> JSONValue
    {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            let (_, json, _) = try await send(try request("GET", "/v1/jobs/\(id)", as: client, identity: identity))
            if case .string(let state)? = json?["status"], ["succeeded", "failed", "cancelled", "dead"].contains(state), let json {
                return json
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("job \(id) did not finish within \(limit)")
    }

    /// Waits until the job is running (or, with `orDone`, has run), as Redis (or `queue`'s) says: for up to a minute,
    /// which a loaded machine's workers can take to claim it.
    func awaitRunning(_ id: JobID, _ tenant: TenantID, orDone: Bool = false, on queue: JobQueue? = nil) async throws -> JobSnapshot {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let job = try await (queue ?? self.queue).snapshot(id, tenant: tenant), job.state == .running || (orDone && job.state.isTerminal) {
                return job
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestFailure("job \(id) did not start within a minute")
    }

    /// Stops services, deletes the namespace and the schema.
    func tearDown() async {
        let running = services.withLock { $0 }
        for service in running { await service.group.triggerGracefulShutdown() }
        for service in running { try? await service.task.value }
        _ = try? await redisNamespace.deleteAll()
        _ = try? await database.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE")
        http.shutdown()
        try? await redis.close()
        try? await database.close()
        try? FileManager.default.removeItem(at: objects.root)
    }

    /// Leases of a minute, for tests that count what one attempt did (its provider calls, what it withdrew): a loaded
    /// machine can hold a worker past the default lease of 5 seconds, and the attempt would then run again.
    static var minuteLeases: QueueConfiguration {
        var configuration = QueueConfiguration()
        configuration.leaseDuration = .seconds(60)
        return configuration
    }

    /// Runs `body` with a fresh harness (on the test servers, or the Redis at `redisURL`) and always tears it down.
    static func with(
        _ configuration: QueueConfiguration = QueueConfiguration(), redisURL: String? = nil, _ body: (Harness) async throws -> Void
    ) async throws {
        let harness = try await Harness(queueConfiguration: configuration, redisURL: redisURL)
        do {
            try await body(harness)
        } catch {
            await harness.tearDown()
            throw error
        }
        await harness.tearDown()
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
