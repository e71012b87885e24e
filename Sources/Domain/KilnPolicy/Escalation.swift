/// The ladder an abuse threshold climbs: the first time it trips the identity waits out a cooldown; if it trips
/// again the same quota day, the identity is blocked, with the reason, for the block duration.
public struct Escalation: Sendable, Equatable {
    public let cooldown: Duration
    public let block: Duration
}

extension Escalation {
    /// `{"cooldown_seconds": 600, "block_seconds": 86400}`
    init(parsing field: PolicyField) throws(PolicyError) {
        let object = try field.object(allowing: ["cooldown_seconds", "block_seconds"])
        self.init(
            cooldown: try object.required("cooldown_seconds").seconds(atLeast: 1),
            block: try object.required("block_seconds").seconds(atLeast: 1)
        )
    }
}
