public import Foundation

/// Fault rules the simulator applies to requests that carry no fault header or prompt directive.
///
/// Loaded from JSON such as `{"rules": [{"route": "anthropic.messages", "fault": "overloaded", "every": 3}]}`;
/// the first rule that fires for a request decides its fault.
public struct SimulatorScenario: Sendable, Codable, Equatable {
    /// One rule: which requests it matches and when it fires.
    public struct Rule: Sendable, Codable, Equatable {
        /// The route name it matches, such as `anthropic.messages` (see `GET /_simulator/stats`); `nil` matches all.
        public var route: String?
        /// The model it matches exactly; `nil` matches all.
        public var model: String?
        /// The fault spec, in the same grammar as the `x-kiln-fault` header.
        public var fault: String
        /// Fires for the first `times` matching requests only; `nil` for no limit.
        public var times: Int?
        /// Fires for every `every`-th matching request (the `every`-th, the 2·`every`-th, …); `nil` for each one.
        public var every: Int?
        /// Fires for this percentage of matching requests, chosen by a hash of `seed` and the request's
        /// ordinal, so a run is repeatable; `nil` for all.
        public var percent: Double?
        /// Seed of the `percent` choice. Default 0.
        public var seed: UInt64?

        /// Creates a rule.
        public init(
            route: String? = nil, model: String? = nil, fault: String, times: Int? = nil, every: Int? = nil, percent: Double? = nil,
            seed: UInt64? = nil
        ) {
            self.route = route
            self.model = model
            self.fault = fault
            self.times = times
            self.every = every
            self.percent = percent
            self.seed = seed
        }
    }

    /// The rules, tried in order.
    public var rules: [Rule]

    /// Creates a scenario.
    public init(rules: [Rule] = []) {
        self.rules = rules
    }

    /// Reads a scenario from a JSON file.
    /// - Throws: if the file cannot be read, is not a scenario, or a rule's fault spec does not parse.
    public init(contentsOf url: URL) throws {
        try self.init(json: Data(contentsOf: url))
    }

    /// Decodes a scenario from JSON.
    /// - Throws: `DecodingError`, or an error naming the first rule whose fault spec does not parse.
    public init(json: Data) throws {
        self = try JSONDecoder().decode(Self.self, from: json)
        try self.validate()
    }

    /// Throws if a rule's fault spec does not parse, naming the rule.
    public func validate() throws {
        for (index, rule) in self.rules.enumerated() {
            do {
                _ = try FaultSpec(parsing: rule.fault)
            } catch {
                throw InvalidRule(description: "rule \(index): \(error.description)")
            }
        }
    }

    /// A rule whose fault does not parse.
    public struct InvalidRule: Error, CustomStringConvertible {
        public let description: String
    }
}
