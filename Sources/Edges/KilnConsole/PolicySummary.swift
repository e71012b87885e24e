import Foundation
import KilnPolicy

/// A tenant's policy in force, as the tenant's page shows it: who its users are, each tier's day, its kinds, when
/// its day resets and what it keeps.
struct PolicySummary {
    struct TierLine {
        let name: String
        let lowest: Bool
        let daily: String
        let cooldowns: String
        let runningCap: Int
        let devicesPerDay: Int
    }

    let identityModes: String
    let resetTimeZone: String
    let safety: String
    let retention: String
    let kinds: String
    let tiers: [TierLine]
    let mcp: Bool

    init(_ policy: TenantPolicy) {
        identityModes = policy.identityModes.map(\.rawValue).sorted().joined(separator: ", ")
        resetTimeZone = policy.resetTimeZone.identifier
        safety = policy.safety.rawValue
        let retention = policy.retention
        func days(_ duration: Duration) -> String { "\(duration.components.seconds / 86_400) d" }
        self.retention =
            "inputs \(days(retention.inputs)), uploads \(days(retention.uploads)), results \(days(retention.results)), artifacts \(days(retention.artifacts))"
        kinds = policy.kinds.keys.sorted().joined(separator: ", ")
        tiers = policy.tiers.values.sorted { $0.isLowest != $1.isLowest ? $0.isLowest : $0.name < $1.name }.map { tier in
            TierLine(
                name: tier.name, lowest: tier.isLowest,
                daily: tier.daily.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                    "\($0.key.rawValue) \($0.value.units.map(String.init) ?? "unlimited")"
                }
                .joined(separator: ", "),
                cooldowns: tier.deviceCooldowns.sorted { $0.key.rawValue < $1.key.rawValue }.map {
                    "\($0.key.rawValue) \($0.value.components.seconds) s"
                }
                .joined(separator: ", "),
                runningCap: tier.runningJobCap, devicesPerDay: tier.maxDevicesPerDay)
        }
        mcp = policy.mcp != nil
    }
}
