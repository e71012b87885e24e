public import KilnCore

/// Key names; they must match the helpers at the top of `Scripts/common.lua`.
public struct QueueKeys: Sendable {
    /// The hash-tagged prefix of every key.
    public let base: String

    public init(namespace: String) {
        self.base = "{\(namespace)}"
    }

    public func job(_ id: JobID) -> String { "\(base):job:\(id)" }
    public func events(_ id: JobID) -> String { "\(base):ev:\(id)" }
    /// Per identity, so one end user's key never answers with another's job; digested, so no identity and key pair can
    /// spell another's.
    public func idempotency(_ tenant: TenantID, _ identity: Identity, _ key: String) -> String {
        "\(base):idem:\(tenant):\(Digest.sha256Hex(identity.rawValue + "\n" + key))"
    }
    public func ready(_ jobClass: JobClass, _ tenant: String, _ priority: Priority) -> String {
        "\(base):ready:\(jobClass.rawValue):\(tenant):\(priority.rank)"
    }
    public func active(_ jobClass: JobClass) -> String { "\(base):active:\(jobClass.rawValue)" }
    public func virtualClock(_ jobClass: JobClass) -> String { "\(base):vclock:\(jobClass.rawValue)" }
    public func wake(_ jobClass: JobClass) -> String { "\(base):wake:\(jobClass.rawValue)" }
    public var weights: String { "\(base):weights" }
    public var inflight: String { "\(base):inflight" }
    public var delayed: String { "\(base):delayed" }
    public var dead: String { "\(base):dead" }
    public var unrecorded: String { "\(base):unrecorded" }
    /// A quota subject's counters of one quota day.
    public func quota(_ tenant: TenantID, _ subject: String, _ day: String) -> String { "\(base):quota:\(tenant):\(subject):\(day)" }
    /// A quota subject's reservations, one per unfinished job.
    public func reservations(_ tenant: TenantID, _ subject: String) -> String { "\(base):rsv:\(tenant):\(subject)" }
    /// A quota subject's block (its value is the reason), and the index of blocks by when they end.
    public func block(_ tenant: TenantID, _ subject: String) -> String { "\(base):block:\(tenant):\(subject)" }
    public var blocks: String { "\(base):blocks" }
    /// An identity's count of running jobs (its cap), and its jobs the cap holds back.
    public func running(_ tenant: TenantID, _ identity: String) -> String { "\(base):running:\(tenant):\(identity)" }
    public func held(_ tenant: TenantID, _ identity: String) -> String { "\(base):held:\(tenant):\(identity)" }
    /// Abuse detection: the devices a subject used in a quota day, and a subject's velocity (GCRA).
    public func devices(_ tenant: TenantID, _ subject: String, _ day: String) -> String { "\(base):devs:\(tenant):\(subject):\(day)" }
    public func velocity(_ tenant: TenantID, _ subject: String) -> String { "\(base):gcra:\(tenant):\(subject)" }
    /// An identity's standing (quota subject, entitled tier), cached from PostgreSQL.
    public func standing(_ tenant: TenantID, _ identity: String) -> String { "\(base):ent:\(tenant):\(identity)" }
    /// The abuse log: a capped stream of the trips of abuse thresholds.
    public var abuseLog: String { "\(base):abuse" }
}
