import KilnCore
import Locking

/// What one shard still holds for a class after a claim: the summed weights of its tenants with ready jobs, how long
/// the job next in its rotation has waited, and whether the claim took a job recovered from a dead worker (one a claim,
/// so that a dead worker's batch is spread over the claimers).
struct ShardBacklog: Sendable {
    var waitingWeight: Int
    var oldestWait: Duration
    var tookRecovered = false
}

/// Spreads each worker's claims of a class over the shards of a namespace of several (docs/queue.md, "Claiming across
/// shards").
///
/// It remembers what each shard's last claim said it still holds, and when its next delayed job or lease expiry falls
/// due. A claim goes to the shards with ready jobs and to those whose delayed work fell due: shared by the weights of
/// their waiting tenants, so tenants' weights hold across shards as they do within one; and when the batch is smaller
/// than the shards, to those whose next job has waited longest, so none is starved. A shard that said it is empty is
/// not claimed from until a cheap look at its rotation (`ZCARD`), sent beside the claims, finds tenants in it, or the
/// worker wakes from blocking on it (a wake-up of any shard makes the next claim visit every shard).
final class ShardClaimBalancer: Sendable {
    /// A shard worth claiming from, and what it is known to hold (nothing yet, for one not visited).
    struct Candidate: Sendable {
        let shard: Int
        let backlog: ShardBacklog?
    }

    private struct Shard {
        var backlog: ShardBacklog
        var dueAt: ContinuousClock.Instant?
    }

    /// One worker's view of one class: each shard's last report, and whether to visit every shard.
    private struct View {
        var shards: [Int: Shard] = [:]
        var visitAll = true
    }

    private let views = Locked<[String: View]>([:])

    /// The shards a worker's claim of `jobClass` may find jobs on, and those only to look at (said empty, not due).
    func candidates(_ jobClass: JobClass, worker: String, shardCount: Int) -> (candidates: [Candidate], looks: [Int]) {
        let now = ContinuousClock.now
        return views.withLock { views in
            let key = Self.key(jobClass, worker)
            let view = views[key, default: View()]
            views[key, default: View()].visitAll = false
            var candidates: [Candidate] = []
            var looks: [Int] = []
            for shard in 0..<shardCount {
                guard let known = view.shards[shard] else {
                    candidates.append(Candidate(shard: shard, backlog: nil))
                    continue
                }
                if view.visitAll || known.backlog.waitingWeight > 0 || known.dueAt.map({ $0 <= now }) == true {
                    candidates.append(Candidate(shard: shard, backlog: known.backlog))
                } else {
                    looks.append(shard)
                }
            }
            return (candidates, looks)
        }
    }

    /// Records what a shard's claim said it still holds, and when its next delayed job or lease falls due.
    func claimed(_ jobClass: JobClass, worker: String, shard: Int, backlog: ShardBacklog, nextWakeIn: Duration?) {
        let dueAt = nextWakeIn.map { ContinuousClock.now + $0 }
        views.withLock { views in
            views[Self.key(jobClass, worker), default: View(visitAll: false)].shards[shard] = Shard(backlog: backlog, dueAt: dueAt)
        }
    }

    /// Records a look at a shard's rotation: tenants of summed weight `weight` have ready jobs there now.
    func looked(_ jobClass: JobClass, worker: String, shard: Int, weight: Int) {
        guard weight > 0 else { return }
        views.withLock { views in
            views[Self.key(jobClass, worker), default: View(visitAll: false)].shards[shard]?.backlog.waitingWeight = weight
        }
    }

    /// The worker woke from blocking on the shards: its next claim visits every one.
    func woke(_ jobClass: JobClass, worker: String) {
        views.withLock { $0[Self.key(jobClass, worker), default: View()].visitAll = true }
    }

    /// How long the worker may block: until the first shard's delayed job or lease falls due.
    func nextDue(_ jobClass: JobClass, worker: String) -> Duration? {
        let now = ContinuousClock.now
        return views.withLock { views in
            views[Self.key(jobClass, worker)]?.shards.values.compactMap(\.dueAt).min().map { max($0 - now, .zero) }
        }
    }

    /// `count` jobs to claim, shared among `candidates`. One candidate gets them all. With at least one job for each, a shard not visited yet gets
    /// one (its reply says what it holds, for the next round), and the rest go to the others by the weight of their
    /// waiting tenants, the remainders to the heaviest; with fewer jobs than shards, one each to the shards whose next
    /// job has waited longest.
    static func share(_ count: Int, among candidates: [Candidate]) -> [Int: Int] {
        guard count > 0, !candidates.isEmpty else { return [:] }
        if candidates.count == 1 { return [candidates[0].shard: count] }
        guard count >= candidates.count else {
            let longest = candidates.sorted { ($0.backlog?.oldestWait ?? .zero) > ($1.backlog?.oldestWait ?? .zero) }
            return Dictionary(uniqueKeysWithValues: longest.prefix(count).map { ($0.shard, 1) })
        }
        var shares = Dictionary(uniqueKeysWithValues: candidates.map { ($0.shard, 1) })
        let weighted = candidates.compactMap { candidate in candidate.backlog.map { (candidate.shard, Double(max($0.waitingWeight, 1))) } }
            .sorted { $0.1 > $1.1 }
        let rest = count - candidates.count
        guard rest > 0, !weighted.isEmpty else { return shares }
        let total = weighted.reduce(0) { $0 + $1.1 }
        var given = 0
        for (shard, weight) in weighted {
            let part = Int((Double(rest) * weight / total).rounded(.down))
            shares[shard, default: 0] += part
            given += part
        }
        for (shard, _) in weighted.prefix(rest - given) { shares[shard, default: 0] += 1 }
        return shares
    }

    private static func key(_ jobClass: JobClass, _ worker: String) -> String { jobClass.rawValue + "|" + worker }
}
