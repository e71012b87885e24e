public import KilnCore
public import KilnQueue
public import KilnStore

/// Checks a day's quota counters in Redis against the ledger and, asked to, rebuilds the ones Redis lost: after a
/// flush, a restore from an old snapshot or a failover that dropped recent writes.
public struct QuotaReconciler: Sendable {
    /// A counter that disagrees with the ledger.
    public struct Drift: Sendable, Equatable {
        public let subject: String
        /// `used:<class>` or `refunded`.
        public let counter: String
        public let redis: Int
        public let ledger: Int

        public init(subject: String, counter: String, redis: Int, ledger: Int) {
            self.subject = subject
            self.counter = counter
            self.redis = redis
            self.ledger = ledger
        }
    }

    let quota: QuotaBook
    let ledger: QuotaLedger

    public init(quota: QuotaBook, ledger: QuotaLedger) {
        self.quota = quota
        self.ledger = ledger
    }

    /// The counters of `tenant` on `day` that disagree with the ledger. Redis ahead of the ledger is normal for a
    /// moment (jobs settled but not yet recorded); behind it means Redis lost writes. With `repair`, counters behind
    /// the ledger are raised to it; none is ever lowered, so a repair cannot admit more than was allowed.
    public func reconcile(tenant: TenantID, day: String, repair: Bool) async throws -> [Drift] {
        var expected: [String: [String: Int]] = [:]
        for total in try await ledger.totals(tenant: tenant, day: day) {
            expected[total.subject, default: [:]]["used:\(total.quotaClass)", default: 0] += total.committed
            expected[total.subject, default: [:]]["refunded", default: 0] += total.released
        }
        var drifts: [Drift] = []
        for (subject, counters) in expected.sorted(by: { $0.key < $1.key }) {
            let actual = try await quota.counters(tenant: tenant, subject: subject, day: day)
            for (counter, value) in counters.sorted(by: { $0.key < $1.key }) where actual[counter, default: 0] != value {
                drifts.append(Drift(subject: subject, counter: counter, redis: actual[counter, default: 0], ledger: value))
            }
            if repair {
                // The day's counters are kept two days past its end; three days from now covers any day being repaired.
                try await quota.raiseCounters(tenant: tenant, subject: subject, day: day, to: counters, ttl: .seconds(3 * 86_400))
            }
        }
        return drifts
    }
}
