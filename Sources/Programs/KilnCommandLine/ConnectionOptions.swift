public import ArgumentParser
import Foundation

/// Where Redis, PostgreSQL and the objects are; flags win over the environment, which wins over defaults.
public struct ConnectionOptions: ParsableArguments, Sendable {
    @Option(help: "Redis URL (env KILN_REDIS_URL).")
    public var redisURL: String = ProcessInfo.processInfo.environment["KILN_REDIS_URL"] ?? "redis://127.0.0.1:6391"

    @Option(help: "PostgreSQL URL (env KILN_DATABASE_URL).")
    public var databaseURL: String = ProcessInfo.processInfo.environment["KILN_DATABASE_URL"] ?? "postgresql://kiln@127.0.0.1:5491/kiln"

    @Option(help: "Directory that holds artifacts and uploads (env KILN_OBJECT_ROOT).")
    public var objectRoot: String = ProcessInfo.processInfo.environment["KILN_OBJECT_ROOT"] ?? ".kiln/objects"

    @Option(
        help: """
            S3-compatible store for artifacts and uploads instead of --object-root: \
            s3://BUCKET?endpoint=URL&region=REGION&path_style=1, with KILN_S3_ACCESS_KEY_ID, KILN_S3_SECRET_ACCESS_KEY \
            and optionally KILN_S3_SESSION_TOKEN in the environment (env KILN_OBJECT_STORE).
            """)
    public var objectStore: String = ProcessInfo.processInfo.environment["KILN_OBJECT_STORE"] ?? ""

    @Option(help: "Prefix and hash tag of every Redis key (env KILN_NAMESPACE).")
    public var namespace: String = ProcessInfo.processInfo.environment["KILN_NAMESPACE"] ?? "kiln"

    @Option(help: "Shards (hash tags) the Redis keys spread over, the same on every process of a fleet (env KILN_REDIS_SHARDS).")
    public var redisShards: Int = ProcessInfo.processInfo.environment["KILN_REDIS_SHARDS"].flatMap { Int($0) } ?? 1

    @Option(
        help: """
            Tenants whose identities spread over several shards: TENANT=COUNT,… (the others live on one shard each); \
            the same on every process of a fleet (env KILN_TENANT_SHARDS).
            """)
    public var tenantShards: String = ProcessInfo.processInfo.environment["KILN_TENANT_SHARDS"] ?? ""

    @Option(help: "PostgreSQL schema (env KILN_DATABASE_SCHEMA).")
    public var schema: String = ProcessInfo.processInfo.environment["KILN_DATABASE_SCHEMA"] ?? "public"

    /// The environment's settings, or the local stack's defaults.
    public init() {}
}
