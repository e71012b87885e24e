import KilnCore
import KilnKeys
import RedisClient

/// `resume.lua`: resumes a paused tenant or class and wakes its claimers.
struct ResumeCall: RedisScriptContract {
    static let scriptName = "resume"

    var keySpace: KeySpace
    var lane: QueueLane

    static let keys: [RedisScriptField<Self>] = [.init("paused") { $0.keySpace.paused }]

    static let arguments: [RedisScriptField<Self>] = [
        .init("base") { $0.keySpace.base },
        .init("lane") { $0.lane.member },
        .init("tenant") {
            if case .tenant(let tenant) = $0.lane { tenant.rawValue } else { "" }
        },
    ]

    /// The classes whose claimers are woken: the paused class, or every class for a tenant.
    var items: [JobClass] {
        if case .jobClass(let jobClass) = lane { [jobClass] } else { JobClass.allCases }
    }

    static let itemArguments: [RedisScriptField<JobClass>] = [.init("class") { $0.rawValue }]

    static let replies = [RedisReplyShape(fields: ["resumed"])]
}
