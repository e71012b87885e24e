public import Foundation
public import KilnCore
import KilnKeys
import RedisClient

/// The jobs Redis holds that have not ended, listed a page at a time for the console (docs/console.md): running (the
/// leases), queued (the ready lists), held back by their identity's cap, and waiting (delayed, or a retry's backoff).
/// A page reads at most ``readLimit`` entries of those lists and sets, so its cost does not grow with the queue: the
/// tenant picks the ready lists and held sets it reads, the identity reads its own index instead, and a filter the
/// structures are not kept by (a kind; a tenant among the leases and delays) is checked on the entries read, the page
/// then saying where to go on. Pages go by position, as Redis's lists do: a job that moves between two pages may be
/// shown twice or not at all, as in any live queue's view.
public struct LiveJobs: NamespaceRole {
    /// Where in the queue a job is.
    public enum Place: String, Sendable, CaseIterable {
        case running, queued, held, waiting
    }

    /// What to list; nil matches anything.
    public struct Filter: Sendable, Hashable {
        public var tenant: TenantID?
        public var identity: Identity?
        public var kind: String?
        /// The class of work: a tenant's ready lists are kept by class, so it narrows what a page reads there.
        public var jobClass: JobClass?
        /// The places to list, in this order: running, queued, held, waiting.
        public var places: [Place]
        public var state: JobState?
        public var createdFrom: Date?
        public var createdBefore: Date?

        public init(
            tenant: TenantID? = nil, identity: Identity? = nil, kind: String? = nil, jobClass: JobClass? = nil, places: [Place] = Place.allCases
        ) {
            self.tenant = tenant
            self.identity = identity
            self.kind = kind
            self.jobClass = jobClass
            self.places = places
        }
    }

    /// Where a page ends: the source it was reading (a list or set of one shard) and how far.
    public struct Cursor: Sendable, Hashable {
        public let source: Int
        public let offset: Int

        /// `<source>.<offset>`, for a link.
        public var text: String { "\(source).\(offset)" }

        /// Nil for text that is not a cursor, or whose offset no Redis list or set reaches (past 2³² entries).
        public init?(text: String) {
            let parts = text.split(separator: ".")
            guard parts.count == 2, let source = Int(parts[0]), let offset = Int(parts[1]), source >= 0, (0...Self.maxOffset).contains(offset)
            else { return nil }
            self.init(source: source, offset: offset)
        }

        /// The most entries a Redis list or set holds: a page's offset reads from no further.
        static let maxOffset = Int(UInt32.max)

        init(source: Int, offset: Int) {
            self.source = source
            self.offset = offset
        }
    }

    /// One job as the list shows it.
    public struct Job: Sendable {
        public let id: JobID
        public let tenant: TenantID
        public let identity: Identity
        public let kind: String
        public let jobClass: JobClass?
        public let state: JobState
        public let place: Place
        public let attempt: Int
        public let maxAttempts: Int
        /// Milliseconds since 1970 (Redis's clock).
        public let createdAtMilliseconds: Int64
        public let startedAtMilliseconds: Int64?
        /// The worker running it.
        public let worker: String?
        /// When its lease ends (running), or when it falls due (waiting); milliseconds since 1970.
        public let untilMilliseconds: Int64?
        /// The last progress reported, JSON text.
        public let progress: String?
    }

    /// A page of jobs, and where the next starts (nil at the end).
    public struct Page: Sendable {
        public let jobs: [Job]
        public let next: Cursor?
        /// How many entries of Redis's lists and sets the page read (an empty one counting as one): fewer jobs than
        /// asked for with a `next` means the read stopped at ``readLimit``.
        public let read: Int
    }

    /// How many jobs are in each place, for the tenant (or all): running and waiting are counted for every tenant,
    /// since the leases and the delays are kept across tenants.
    public struct Counts: Sendable, Equatable {
        public var running = 0
        public var queued = 0
        public var held = 0
        public var waiting = 0
    }

    /// How many jobs a filter matches, counted over a bounded read.
    public struct MatchCount: Sendable, Equatable {
        public let matches: Int
        /// Whether every entry the filter reads was read: when not, at least ``matches`` match.
        public let complete: Bool

        public init(matches: Int, complete: Bool) {
            self.matches = matches
            self.complete = complete
        }
    }

    /// The most entries one page reads.
    public static let readLimit = 2_000

    let namespace: RedisNamespace

    init(_ namespace: RedisNamespace) {
        self.namespace = namespace
    }

    /// The jobs matching `filter` after `cursor`, at most `limit`.
    public func page(_ filter: Filter, after cursor: Cursor?, limit: Int) async throws -> Page {
        let sources = try await sources(for: filter)
        var position = cursor ?? Cursor(source: 0, offset: 0)
        var jobs: [Job] = []
        var entriesRead = 0
        while position.source < sources.count, jobs.count < limit, entriesRead < Self.readLimit {
            let source = sources[position.source]
            let count = min(Self.readLimit - entriesRead, max(limit - jobs.count, 100))
            let entries = try await entries(of: source, from: position.offset, count: count)
            // An empty list or set counts as one entry read: a page visits a bounded number of them too.
            entriesRead += max(entries.count, 1)
            guard !entries.isEmpty else {
                position = Cursor(source: position.source + 1, offset: 0)
                continue
            }
            let found = try await read(entries, in: source)
            var taken = 0
            for job in found {
                taken += 1
                guard let job, filter.matches(job) else { continue }
                jobs.append(job)
                if jobs.count == limit { break }
            }
            position = Cursor(source: position.source, offset: position.offset + taken)
        }
        let atEnd = position.source >= sources.count
        return Page(jobs: jobs, next: atEnd ? nil : position, read: entriesRead)
    }

    /// How many jobs match `filter`, read as pages are, up to about `entries` of Redis's entries (at least one page's):
    /// a confirmation's count, whose cost stays bounded however long the queue.
    public func count(_ filter: Filter, readingAtMost entries: Int) async throws -> MatchCount {
        var matches = 0
        var read = 0
        var cursor: Cursor?
        repeat {
            let page = try await page(filter, after: cursor, limit: Self.readLimit)
            matches += page.jobs.count
            read += page.read
            cursor = page.next
        } while cursor != nil && read < entries
        return MatchCount(matches: matches, complete: cursor == nil)
    }

    /// How many of `tenant`'s jobs of each class wait in its ready lists (every priority, every shard): exact, a
    /// length per list.
    public func readyCounts(tenant: TenantID) async throws -> [JobClass: Int] {
        var counts: [JobClass: Int] = [:]
        for keys in shards.all {
            for jobClass in JobClass.allCases {
                let lengths = try await redis.pipeline(readyLists(on: keys, tenants: [tenant], classes: [jobClass]).map { ["LLEN", $0] })
                counts[jobClass, default: 0] += lengths.reduce(0) { $0 + Int($1.int ?? 0) }
            }
        }
        return counts
    }

    /// How many jobs are in each place, for `tenant` or all.
    public func counts(tenant: TenantID?) async throws -> Counts {
        var counts = Counts()
        for keys in shards.all {
            let tenants = try await tenants(on: keys, only: tenant)
            let holders = try await holders(on: keys, only: tenant)
            let ready = readyLists(on: keys, tenants: tenants, classes: JobClass.allCases)
            let replies = try await redis.pipeline(
                [["ZCARD", keys.inflight], ["ZCARD", keys.delayed]] + ready.map { ["LLEN", $0] }
                    + holders.map { ["ZCARD", keys.held($0.tenant, $0.identity)] })
            counts.running += Int(replies[0].int ?? 0)
            counts.waiting += Int(replies[1].int ?? 0)
            counts.queued += replies[2..<(2 + ready.count)].reduce(0) { $0 + Int($1.int ?? 0) }
            counts.held += replies[(2 + ready.count)...].reduce(0) { $0 + Int($1.int ?? 0) }
        }
        return counts
    }

    /// One list or set of one shard that holds job ids in some place.
    private struct Source {
        enum Shape {
            /// A list, read by `LRANGE`.
            case list
            /// A sorted set by rank, with each member's score (`ZRANGE … WITHSCORES`).
            case sortedSet
            /// An identity's index: only its members that do not expire, those of jobs that have not been recorded.
            case index
        }

        let keys: KeySpace
        let key: String
        let shape: Shape
        /// The place its jobs are in; nil for an identity's index, where each job's state says.
        let place: Place?
    }

    /// The sources `filter` reads, in order, on every shard.
    private func sources(for filter: Filter) async throws -> [Source] {
        var sources: [Source] = []
        for keys in shards.all {
            if let identity = filter.identity {
                for tenant in try await tenants(on: keys, only: filter.tenant) {
                    sources.append(Source(keys: keys, key: keys.owned(tenant, identity), shape: .index, place: nil))
                }
                continue
            }
            for place in filter.places {
                switch place {
                case .running: sources.append(Source(keys: keys, key: keys.inflight, shape: .sortedSet, place: .running))
                case .waiting: sources.append(Source(keys: keys, key: keys.delayed, shape: .sortedSet, place: .waiting))
                case .queued:
                    let tenants = try await tenants(on: keys, only: filter.tenant)
                    for list in readyLists(on: keys, tenants: tenants, classes: filter.jobClass.map { [$0] } ?? JobClass.allCases) {
                        sources.append(Source(keys: keys, key: list, shape: .list, place: .queued))
                    }
                case .held:
                    for holder in try await holders(on: keys, only: filter.tenant) {
                        sources.append(Source(keys: keys, key: keys.held(holder.tenant, holder.identity), shape: .sortedSet, place: .held))
                    }
                }
            }
        }
        return sources
    }

    /// The ready lists of `tenants` and `classes` on a shard: by tenant, then class, then priority.
    private func readyLists(on keys: KeySpace, tenants: [TenantID], classes: [JobClass]) -> [String] {
        tenants.flatMap { tenant in
            classes.flatMap { jobClass in Priority.allCases.map { keys.ready(jobClass, tenant.rawValue, $0) } }
        }
    }

    /// The tenants with jobs on a shard (those it keeps a weight for), or just `only`.
    private func tenants(on keys: KeySpace, only: TenantID?) async throws -> [TenantID] {
        if let only { return [only] }
        return (try await redis.send(["HKEYS", keys.weights]).array ?? []).compactMap { $0.string.flatMap(TenantID.init(validating:)) }
            .sorted { $0.rawValue < $1.rawValue }
    }

    /// The identities with jobs held back on a shard, of `only` if given.
    private func holders(on keys: KeySpace, only: TenantID?) async throws -> [(tenant: TenantID, identity: String)] {
        let members = (try await redis.send(["SMEMBERS", keys.holders]).array ?? []).compactMap(\.string).sorted()
        return members.compactMap { member in
            let parts = member.split(separator: ":", maxSplits: 1)
            guard parts.count == 2, let tenant = TenantID(validating: String(parts[0])), only == nil || only == tenant else { return nil }
            return (tenant, String(parts[1]))
        }
    }

    /// Up to `count` of a source's entries from `offset`: each job's id, and its score where the source has one.
    private func entries(of source: Source, from offset: Int, count: Int) async throws -> [(id: JobID?, score: Int64?)] {
        let last = String(offset + count - 1)
        switch source.shape {
        case .list:
            let ids = try await redis.send(["LRANGE", source.key, String(offset), last]).array ?? []
            return ids.map { ($0.string.flatMap(JobID.init(validating:)), nil) }
        case .sortedSet:
            let pairs = try await redis.send(["ZRANGE", source.key, String(offset), last, "WITHSCORES"]).array ?? []
            return stride(from: 0, to: pairs.count - 1, by: 2).map { index in
                (pairs[index].string.flatMap(JobID.init(validating:)), pairs[index + 1].string.flatMap { Double($0) }.map { Int64($0) })
            }
        case .index:
            let members = try await redis.send(["ZRANGE", source.key, "+inf", "+inf", "BYSCORE", "LIMIT", String(offset), String(count)]).array ?? []
            return members.map { member in
                let text = member.string ?? ""
                return (text.hasPrefix("j:") ? JobID(validating: String(text.dropFirst(2))) : nil, nil)
            }
        }
    }

    /// The fields a list shows.
    private static let fields = ["id", "tenant", "identity", "kind", "class", "state", "attempt", "max", "created", "started", "worker", "progress"]

    /// The entries' jobs, nil for an entry whose job is gone (or that names none).
    private func read(_ entries: [(id: JobID?, score: Int64?)], in source: Source) async throws -> [Job?] {
        let ids = entries.compactMap(\.id)
        var replies = try await redis.pipeline(ids.map { ["HMGET", source.keys.job($0)] + Self.fields }).makeIterator()
        return entries.map { entry -> Job? in
            guard entry.id != nil, let reply = replies.next() else { return nil }
            let values = (reply.array ?? []).map(\.string)
            guard values.count == Self.fields.count else { return nil }
            let field = Dictionary(uniqueKeysWithValues: zip(Self.fields, values).compactMap { name, value in value.map { (name, $0) } })
            guard let id = field["id"].flatMap(JobID.init(validating:)), let tenant = field["tenant"].flatMap(TenantID.init(validating:)),
                let identity = field["identity"].flatMap(Identity.init(validating:)), let state = field["state"].flatMap(JobState.init(rawValue:)),
                !state.isTerminal
            else { return nil }
            let place = source.place ?? (state == .running ? .running : state == .retrying ? .waiting : .queued)
            return Job(
                id: id, tenant: tenant, identity: identity, kind: field["kind"] ?? "", jobClass: field["class"].flatMap(JobClass.init(rawValue:)),
                state: state, place: place, attempt: field["attempt"].flatMap(Int.init) ?? 0, maxAttempts: field["max"].flatMap(Int.init) ?? 1,
                createdAtMilliseconds: field["created"].flatMap(Int64.init) ?? 0, startedAtMilliseconds: field["started"].flatMap(Int64.init),
                worker: state == .running ? field["worker"] : nil, untilMilliseconds: entry.score, progress: field["progress"])
        }
    }
}

extension LiveJobs.Filter {
    /// Whether the job matches the filter: the sources chose by some of it, the jobs read are checked on all of it.
    func matches(_ job: LiveJobs.Job) -> Bool {
        let created = Date(timeIntervalSince1970: Double(job.createdAtMilliseconds) / 1000)
        return (tenant == nil || job.tenant == tenant) && (identity == nil || job.identity == identity) && (kind == nil || job.kind == kind)
            && (jobClass == nil || job.jobClass == jobClass) && places.contains(job.place) && (state == nil || job.state == state)
            && (createdFrom.map { created >= $0 } ?? true) && (createdBefore.map { created < $0 } ?? true)
    }
}
