public import Foundation
public import KilnCore
public import KilnPolicy
public import KilnQueue
public import KilnStore
public import Logging

/// The retention purge (`kiln purge`, docs/privacy.md): for each tenant, deletes the inputs, results, artifacts and
/// uploads older than its policy's retention periods (``RetentionPeriods/standard`` for a tenant without a policy)
/// from PostgreSQL and the object store, with the Redis copies of the jobs it empties, and its dead-lettered jobs past
/// retention from Redis. Work goes in batches
/// of `batchSize`, each a short statement, so a purge never holds locks for long; it is idempotent, so it may be
/// stopped and run again at any time, and runs on several hosts at once only repeat each other's work.
public struct RetentionPurger: Sendable {
    private let admin: QueueAdmin
    private let records: RecordPurge
    private let policies: PolicySet
    private let batchSize: Int
    private let logger: Logger

    public init(admin: QueueAdmin, records: RecordPurge, policies: PolicySet, batchSize: Int = 500, logger: Logger? = nil) {
        self.admin = admin
        self.records = records
        self.policies = policies
        self.batchSize = max(batchSize, 1)
        self.logger = logger ?? Logger(label: "kiln.purge", factory: { _ in SwiftLogNoOpLogHandler() })
    }

    /// Purges what is past retention at `now` (a parameter, so tests move time instead of waiting for days).
    public func purge(tenants: [TenantID], now: Date) async throws -> [PurgeCounts] {
        var report: [PurgeCounts] = []
        for tenant in tenants {
            let retention = self.retention(of: tenant)
            var counts = PurgeCounts(tenant: tenant)
            // A job's Redis copy goes with its input or result: it would answer with them until it expires.
            counts.inputs = try await repeatBatches { limit in
                let cleared = try await records.clearInputs(tenant: tenant, finishedBefore: now - retention.inputs, limit: limit)
                try await admin.forgetRecorded(cleared)
                return cleared.count
            }
            counts.results = try await repeatBatches { limit in
                let cleared = try await records.clearResults(tenant: tenant, finishedBefore: now - retention.results, limit: limit)
                try await admin.forgetRecorded(cleared)
                return cleared.count
            }
            counts.artifacts = try await repeatBatches { limit in
                try await records.deleteArtifacts(tenant: tenant, storedBefore: now - retention.artifacts, limit: limit)
            }
            counts.uploads = try await repeatBatches { limit in
                try await records.deleteUploads(tenant: tenant, uploadedBefore: now - retention.uploads, limit: limit)
            }
            counts.shares = try await repeatBatches { limit in try await records.endShares(tenant: tenant, now: now, limit: limit) }
            counts.campaigns = try await repeatBatches { limit in
                try await records.deleteCampaigns(tenant: tenant, idleBefore: now - retention.results, limit: limit)
            }
            if let kept = retention.records {
                counts.records = try await repeatBatches { limit in
                    try await records.deleteRecords(tenant: tenant, submittedBefore: now - kept, limit: limit)
                }
            }
            report.append(counts)
        }
        let dead = try await purgeDeadLetters(of: Set(tenants), now: now)
        for index in report.indices { report[index].deadLetters = dead[report[index].tenant] ?? 0 }
        for counts in report where !counts.isEmpty {
            logger.info(
                "retention purge",
                metadata: [
                    "tenant.id": "\(counts.tenant)", "purge.inputs": "\(counts.inputs)", "purge.results": "\(counts.results)",
                    "purge.artifacts": "\(counts.artifacts)", "purge.uploads": "\(counts.uploads)", "purge.shares": "\(counts.shares)",
                    "purge.campaigns": "\(counts.campaigns)",
                    "purge.dead": "\(counts.deadLetters)", "purge.records": "\(counts.records)",
                ])
        }
        return report
    }

    /// Keeps the partitions of the tables that grow with jobs (docs/postgres-at-scale.md): creates those of the coming
    /// days, and drops whole days whose every record is past the longest `records_days` of `tenants`, which must be
    /// every tenant there is, and whose artifacts are past the longest `artifacts_days`. While any tenant keeps its
    /// records until erasure (no `records_days`), no day goes.
    public func maintainPartitions(of tenants: [TenantID], now: Date) async throws -> PartitionCounts {
        var counts = PartitionCounts()
        counts.created = try await records.partitions.createAhead(from: JobPartitions.Day(containing: now))
        let periods = tenants.map(retention(of:))
        let recordsKept = periods.map(\.records)
        guard !recordsKept.contains(where: { $0 == nil }), let longest = recordsKept.compactMap({ $0 }).max() else { return counts }
        let artifactsKept = periods.map(\.artifacts).max() ?? .zero
        for day in try await records.partitions.days() where day.end <= now - longest {
            if try await records.dropDay(day, artifactsStoredBefore: now - artifactsKept) { counts.dropped.append(day) }
        }
        return counts
    }

    private func retention(of tenant: TenantID) -> RetentionPeriods {
        policies[tenant]?.retention ?? .standard
    }

    /// Dead letters keep their input (and a failed job's events) in Redis until replayed or purged: they go once
    /// their input or their result would have gone from PostgreSQL, whichever comes first.
    private func purgeDeadLetters(of tenants: Set<TenantID>, now: Date) async throws -> [TenantID: Int] {
        func kept(_ tenant: TenantID) -> Duration { min(retention(of: tenant).inputs, retention(of: tenant).results) }
        let shortest = tenants.map(kept).min() ?? .zero
        var purged: [TenantID: Int] = [:]
        var offset = 0
        while true {
            let page = try await admin.deadLetters(endedBefore: now - shortest, offset: offset, limit: batchSize)
            var removed = 0
            for job in page where tenants.contains(job.tenant) {
                let ended = Date(timeIntervalSince1970: Double(job.finishedAtMilliseconds ?? 0) / 1000)
                guard ended < now - kept(job.tenant) else { continue }
                removed += try await admin.purgeDead(job.id)
                purged[job.tenant, default: 0] += 1
            }
            guard page.count == batchSize else { break }
            offset += page.count - removed
        }
        return purged
    }

    /// Runs `batch` until it does less than a whole batch; returns the total.
    private func repeatBatches(_ batch: (Int) async throws -> Int) async throws -> Int {
        var total = 0
        while true {
            let done = try await batch(batchSize)
            total += done
            if done < batchSize { return total }
        }
    }
}

extension Date {
    /// `duration` earlier.
    fileprivate static func - (date: Date, duration: Duration) -> Date {
        date.addingTimeInterval(-Double(duration.components.seconds))
    }
}
