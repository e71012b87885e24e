import KilnCore
import KilnKeys
import RedisClient

/// `rename.lua`: renames one identity of a tenant in Redis.
struct RenameCall: RedisScriptContract {
    static let scriptName = "rename"

    /// What the script renames besides the keys named by the identity alone.
    enum Item: Sendable {
        /// One of the identity's jobs, as owner or quota subject.
        case job(JobID)
        /// A quota day (`yyyyMMdd`) with the identity's counters or devices.
        case day(String)
        /// A device's set of the subjects it served in a day, which names the identity.
        case served(key: String)

        var family: String {
            switch self {
            case .job: "job"
            case .day: "day"
            case .served: "served"
            }
        }

        var value: String {
            switch self {
            case .job(let id): id.rawValue
            case .day(let day): day
            case .served(let key): key
            }
        }
    }

    var keySpace: KeySpace
    var tenant: TenantID
    var from: Identity
    var to: Identity
    var items: [Item]

    static let keys: [RedisScriptField<Self>] = [
        .init("unrecorded") { $0.keySpace.unrecorded },
        .init("blocks") { $0.keySpace.blocks },
    ]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("tenant") { $0.tenant.rawValue },
        .init("from") { $0.from.rawValue },
        .init("to") { $0.to.rawValue },
    ]

    static let itemArguments: [RedisScriptField<Item>] = [.init("family") { $0.family }, .init("value") { $0.value }]

    static let replies = [RedisReplyShape(fields: ["jobs", "pending"])]

    static func outcome(of reply: RedisValue) throws -> (jobs: Int, pending: [JobID]) {
        let reply = try read(reply)
        return (Int(try reply.int("jobs")), try reply.strings("pending").compactMap(JobID.init(validating:)))
    }
}
