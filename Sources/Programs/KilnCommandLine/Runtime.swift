import ArgumentParser
import CurlClient
import Foundation
public import KilnAssembly
public import KilnQueue
public import KilnStore
public import PostgresClient
public import RedisClient
public import ServiceLifecycle

/// The connections and stores one command uses, built from its options and closed when it ends.
public struct Runtime: Sendable {
    /// Redis: shared, pipelined connections, and connections of their own for blocking reads.
    public let redis: RedisPool
    /// PostgreSQL, on the options' schema.
    public let database: PostgresPool
    /// The options' Redis namespace: the queue and the other roles over it.
    public let namespace: RedisNamespace
    /// The local directory or the S3 store the options name.
    public let objects: any ObjectBackend
    /// The S3 store's HTTP client, shut down with the runtime; nil for the local directory.
    private let objectHTTP: HTTPClient?

    /// Builds the pools and the queue; a wrong Redis URL or object store throws a `ValidationError` naming the option.
    public init(_ options: ConnectionOptions) throws {
        // Read first, so a bad object store stops the command before any connection is made.
        let location: ObjectLocation
        do {
            location = try ObjectLocation(store: options.objectStore, root: options.objectRoot, environment: ProcessInfo.processInfo.environment)
        } catch let error as StoreError {
            throw ValidationError("--object-store (KILN_OBJECT_STORE): \(error.message)")
        }
        guard let redisConfiguration = RedisConfiguration(url: options.redisURL) else {
            throw ValidationError("--redis-url must look like redis://host:port, or redis-cluster://host:port,host:port for a cluster")
        }
        redis = RedisPool(configuration: redisConfiguration)
        var databaseConfiguration = PostgresConfiguration(url: options.databaseURL)
        databaseConfiguration.searchPath = options.schema
        database = try PostgresPool(configuration: databaseConfiguration)
        var queueConfiguration = QueueConfiguration()
        queueConfiguration.namespace = options.namespace
        queueConfiguration.shards = options.redisShards
        queueConfiguration.tenantShards = try Self.tenantShards(options.tenantShards)
        do {
            namespace = try RedisNamespace(redis: redis, configuration: queueConfiguration)
        } catch let error as QueueConfigurationError {
            throw ValidationError("--redis-shards / --tenant-shards: \(error)")
        }
        switch location {
        case .directory(let root):
            objects = ObjectStore(root: root)
            objectHTTP = nil
        case .s3(let configuration):
            let http = try HTTPClient()
            objects = S3ObjectStore(configuration: configuration, http: http)
            objectHTTP = http
        }
    }

    /// `TENANT=COUNT,…` as a map. - Throws: a `ValidationError` naming the entry that is not of that form.
    static func tenantShards(_ text: String) throws -> [String: Int] {
        var spread: [String: Int] = [:]
        for entry in text.split(separator: ",") {
            let parts = entry.split(separator: "=")
            guard parts.count == 2, let count = Int(parts[1].trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--tenant-shards: '\(entry)' is not TENANT=COUNT")
            }
            spread[parts[0].trimmingCharacters(in: .whitespaces)] = count
        }
        return spread
    }

    /// The API node's and the worker's parts, built from these connections.
    public var assembly: Assembly { Assembly(namespace: namespace, database: database, objects: objects) }

    /// The pools and the S3 store's HTTP client as services, to list before the API node or the worker in a service
    /// group: it closes them once those have stopped.
    public var services: [any Service] {
        [ClosingService(redis.close), ClosingService(database.close)]
            + (objectHTTP.map { http in [ClosingService { http.shutdown() }] } ?? [])
    }

    /// Closes the pools and the S3 store's HTTP client.
    public func close() async throws {
        try await redis.close()
        try await database.close()
        objectHTTP?.shutdown()
    }

    /// Runs `body` with a runtime, closing it afterwards whatever happens.
    public static func with<T>(_ options: ConnectionOptions, _ body: (Runtime) async throws -> T) async throws -> T {
        let runtime = try Runtime(options)
        do {
            let value = try await body(runtime)
            try await runtime.close()
            return value
        } catch {
            try? await runtime.close()
            throw error
        }
    }
}
