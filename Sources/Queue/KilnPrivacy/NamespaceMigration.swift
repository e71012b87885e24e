public import KilnCore
public import KilnPolicy
public import KilnQueue
public import KilnStore

/// Moves the identities that JWTs made before each identity mode had a namespace of its own to their names now
/// (`kiln identity migrate-namespaces`, docs/identity.md). A `sub` was taken as it was, so one that starts with a
/// reserved prefix (``IdentityNamespace``) was stored under that name; it is now `u:` followed by the `sub`, and its
/// jobs, uploads, shares, campaigns, ledger, entitlement, partner links, quota counters and blocks follow it.
///
/// Idempotent: a renamed identity is a namespaced name that no later run takes for a stored `sub`. So it can run
/// again, while old API nodes still serve or after jobs that were running have been recorded under the old name.
public struct NamespaceMigration: Sendable {
    /// What becomes of one stored identity of a tenant that accepts JWTs.
    public enum Decision: Sendable, Equatable {
        /// Not a JWT's `sub` with a reserved prefix, or already a namespaced name.
        case keep
        /// A JWT's `sub` stored as it was: its name now.
        case rename(to: String)
        /// It starts with the prefix of another mode the tenant accepts too, so it may be that mode's identity or a
        /// JWT's: nothing in the name tells which, and it is left as it is.
        case ambiguous
    }

    /// One identity to rename.
    public struct Rename: Sendable, Hashable {
        public let tenant: TenantID
        public let from: Identity
        public let to: Identity

        public init(tenant: TenantID, from: Identity, to: Identity) {
            self.tenant = tenant
            self.from = from
            self.to = to
        }
    }

    /// A stored identity left as it is.
    public struct Left: Sendable, Equatable {
        public let tenant: TenantID
        public let identity: String
    }

    /// What a run would do.
    public struct Plan: Sendable, Equatable {
        public var renames: [Rename] = []
        /// Stored identities that may be another mode's (``Decision/ambiguous``).
        public var ambiguous: [Left] = []
        /// Stored identities whose new name would be longer than an identity may be (128 characters).
        public var tooLong: [Left] = []
    }

    /// What a run did.
    public struct Report: Sendable {
        /// The first run's plan: what was renamed, and what was left.
        public var plan = Plan()
        /// Rows of PostgreSQL that changed.
        public var rows = 0
        /// Jobs in Redis that changed owner.
        public var jobs = 0
        /// Renamed identities' jobs that were running, or finished and not yet recorded: their records arrive under the
        /// old name, and a repeated run renames them.
        public var pending: [JobID] = []

        public init(plan: Plan) {
            self.plan = plan
        }
    }

    private let redis: QueueRenamer
    private let records: IdentityRecords

    public init(namespace: RedisNamespace, records: IdentityRecords) {
        self.redis = namespace.renamer
        self.records = records
    }

    /// What becomes of `stored`, an identity of a tenant that accepts JWTs and the other identity `modes`.
    public static func decision(for stored: String, modes: Set<IdentityMode>) -> Decision {
        let renamed = Decision.rename(to: IdentityNamespace.userName(stored))
        switch IdentityNamespace(of: stored) {
        case nil: return .keep
        // `u:` and another prefix is a name escaped already; `u:` and anything else was a `sub` stored as it was.
        case .escapedUser:
            return IdentityNamespace(of: String(stored.dropFirst(IdentityNamespace.escapedUser.rawValue.count))) == nil ? renamed : .keep
        case .appStoreTransaction, .appTransaction: return modes.contains(.appStore) ? .ambiguous : renamed
        case .device: return modes.contains(.anonymousDevice) ? .ambiguous : renamed
        }
    }

    /// The renames of every tenant that accepts JWTs, from what PostgreSQL and Redis hold.
    public func plan(policies: PolicySet) async throws -> Plan {
        var plan = Plan()
        let prefixes = IdentityNamespace.allCases.map(\.rawValue)
        for (tenant, policy) in policies.tenants.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where policy.identityModes.contains(.jwt) {
            let stored = try await records.identities(tenant: tenant, startingWith: prefixes).union(
                try await redis.identities(tenant: tenant) { IdentityNamespace(of: $0) != nil })
            for name in stored.sorted() {
                switch Self.decision(for: name, modes: policy.identityModes) {
                case .keep: continue
                case .ambiguous: plan.ambiguous.append(Left(tenant: tenant, identity: name))
                case .rename(let to):
                    guard let from = Identity(validating: name), let to = Identity(validating: to) else {
                        plan.tooLong.append(Left(tenant: tenant, identity: name))
                        continue
                    }
                    plan.renames.append(Rename(tenant: tenant, from: from, to: to))
                }
            }
        }
        return plan
    }

    /// Renames each identity of `plan` in Redis, then in PostgreSQL.
    public func run(_ plan: Plan) async throws -> Report {
        var report = Report(plan: plan)
        for rename in plan.renames {
            let renamed = try await redis.rename(rename.from, to: rename.to, tenant: rename.tenant)
            report.rows += try await records.rename(rename.from, to: rename.to, tenant: rename.tenant)
            report.jobs += renamed.jobs
            report.pending += renamed.pending
        }
        return report
    }

    /// Plans and runs; then, while renamed identities' jobs are pending, waits for their records (up to `attempts`
    /// checks `pause` apart) and runs again, for what they recorded under the old name. Returns what all the runs did,
    /// and the jobs still pending at the end.
    public func migrate(policies: PolicySet, attempts: Int, pause: Duration) async throws -> Report {
        var report = try await run(try await plan(policies: policies))
        var attempt = 1
        while !report.pending.isEmpty, attempt < attempts {
            try await Task.sleep(for: pause)
            attempt += 1
            report.pending = try await redis.unfinished(report.pending)
            guard report.pending.isEmpty else { continue }
            let later = try await run(try await plan(policies: policies))
            report.rows += later.rows
            report.jobs += later.jobs
            report.pending = later.pending
        }
        return report
    }
}
