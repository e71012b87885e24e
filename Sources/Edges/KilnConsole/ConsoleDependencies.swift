public import Foundation
import KilnAdmission
public import KilnPolicy
public import KilnQueue
public import KilnStore
public import PostgresClient

/// What the console reads and acts on: the Redis namespace and PostgreSQL of the fleet it watches, and the policies in
/// force. The console runs against the real services only; its tests start them.
public struct ConsoleDependencies: Sendable {
    public let namespace: RedisNamespace
    public let database: PostgresPool
    public let objects: any ObjectBackend
    public let policies: PolicySet
    /// Now, for quota days.
    public let clock: @Sendable () -> Date

    public init(
        namespace: RedisNamespace, database: PostgresPool, objects: any ObjectBackend, policies: PolicySet,
        clock: @escaping @Sendable () -> Date = Date.init
    ) {
        self.namespace = namespace
        self.database = database
        self.objects = objects
        self.policies = policies
        self.clock = clock
    }

    var operators: OperatorStore { OperatorStore(pool: database) }
    var audit: ConsoleAuditLog { ConsoleAuditLog(pool: database) }
    var search: JobSearch { JobSearch(pool: database) }
    var tenants: TenantStore { TenantStore(pool: database) }
    var keys: APIKeyStore { APIKeyStore(pool: database) }
    var artifacts: ArtifactStore { ArtifactStore(pool: database, objects: objects) }
    var usage: ProviderUsageStore { ProviderUsageStore(pool: database) }
    var standings: StandingLookup {
        StandingLookup(cache: namespace.standings, entitlements: EntitlementStore(pool: database), policies: policies)
    }
}
