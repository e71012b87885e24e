import Foundation
import Locking

/// What the simulator remembers between requests: request counts, fault counters, the scenario, and fal.ai's
/// queued requests. One lock guards it all; every critical section is a few dictionary operations.
final class SimulatorState: Sendable {
    struct Contents {
        var requests: [String: Int] = [:]
        var faultCounters: [String: Int] = [:]
        var scenario: SimulatorScenario
        var ruleCounters: [Int] = []
        var falRequests: [String: FalRequest] = [:]
        var falOrder: [String] = []
        var sequence: UInt64 = 0
    }

    let contents: Locked<Contents>

    init(scenario: SimulatorScenario) {
        self.contents = Locked(Contents(scenario: scenario, ruleCounters: Array(repeating: 0, count: scenario.rules.count)))
    }

    /// Counts a request for `GET /_simulator/stats` and returns its ordinal, which seeds its ids.
    func record(route: String) -> UInt64 {
        self.contents.withLock { contents in
            contents.requests[route, default: 0] += 1
            contents.sequence += 1
            return contents.sequence
        }
    }

    var requestCounts: [String: Int] {
        self.contents.withLock { $0.requests }
    }

    var scenario: SimulatorScenario {
        self.contents.withLock { $0.scenario }
    }

    /// Replaces the scenario and restarts its rules' counters (and the `times=` counters, so a test that installs
    /// a scenario starts from a clean slate).
    func replaceScenario(_ scenario: SimulatorScenario) {
        self.contents.withLock { contents in
            contents.scenario = scenario
            contents.ruleCounters = Array(repeating: 0, count: scenario.rules.count)
            contents.faultCounters = [:]
        }
    }

    /// The fault for a request: the header's spec, else the prompt's directive, else the first scenario rule
    /// that fires. A spec with `times=N` applies to the first N requests sharing its key, and to none after.
    /// - Throws: if the header or the directive does not parse; the client gets a 400 saying why.
    func fault(route: String, model: String?, header: String?, prompt: String?) throws(FaultSpec.ParseError) -> FaultSpec? {
        let explicit: FaultSpec?
        if let header, !header.trimmingSpaces().isEmpty {
            explicit = try FaultSpec(parsing: header)
        } else if let prompt, let directive = FaultDirective.first(in: prompt) {
            explicit = try FaultSpec(parsing: directive)
        } else {
            explicit = nil
        }
        return self.contents.withLock { contents in
            guard let spec = explicit ?? Self.scenarioFault(route: route, model: model, contents: &contents) else { return nil }
            guard let times = spec.times else { return spec }
            contents.faultCounters[spec.counterKey, default: 0] += 1
            return contents.faultCounters[spec.counterKey, default: 0] <= times ? spec : nil
        }
    }

    private static func scenarioFault(route: String, model: String?, contents: inout Contents) -> FaultSpec? {
        for (index, rule) in contents.scenario.rules.enumerated() {
            if let wanted = rule.route, wanted != route { continue }
            if let wanted = rule.model, wanted != model { continue }
            contents.ruleCounters[index] += 1
            let ordinal = contents.ruleCounters[index]
            if let times = rule.times, ordinal > times { continue }
            if let every = rule.every, every > 0, ordinal % every != 0 { continue }
            if let percent = rule.percent {
                var generator = SeededGenerator(seed: "\(rule.seed ?? 0)/\(index)/\(ordinal)")
                if Double(generator.next() % 10_000) >= percent * 100 { continue }
            }
            // Scenarios are validated when loaded, so a spec that fails here was never installed.
            if let spec = try? FaultSpec(parsing: rule.fault) { return spec }
        }
        return nil
    }
}
