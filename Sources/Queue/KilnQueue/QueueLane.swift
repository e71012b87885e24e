public import KilnCore

/// What an operator pauses and resumes: every job of a tenant, or every job of a class.
public enum QueueLane: Sendable, Hashable {
    case tenant(TenantID)
    case jobClass(JobClass)

    /// Its member of the `paused` set, as the claim script reads it.
    var member: String {
        switch self {
        case .tenant(let tenant): "tenant:" + tenant.rawValue
        case .jobClass(let jobClass): "class:" + jobClass.rawValue
        }
    }

    /// The lane a member of the `paused` set names; nil for one it does not know.
    init?(member: String) {
        if member.hasPrefix("tenant:"), let tenant = TenantID(validating: String(member.dropFirst(7))) {
            self = .tenant(tenant)
        } else if member.hasPrefix("class:"), let jobClass = JobClass(rawValue: String(member.dropFirst(6))) {
            self = .jobClass(jobClass)
        } else {
            return nil
        }
    }
}
