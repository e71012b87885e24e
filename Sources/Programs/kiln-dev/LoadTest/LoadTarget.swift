import RedisClient

/// Where the generators' decisions come from, and what of it this process can measure.
struct LoadTarget {
    /// Who decides.
    enum Decider {
        /// An API, as the load-test tenant with this key.
        case api(url: String, key: String)
        /// The generators themselves, naively, against this Redis.
        case naive(redisURL: String, namespace: String)
    }

    var decider: Decider
    /// What is driven, for the report.
    var description: String
    /// The API node this command started: its CPU is part of the figures.
    var apiProcess: ChildProcess?
    /// Redis, when this command reaches it: its CPU is part of the figures.
    var redis: RedisPool?

    /// Arguments that point a generator at the decider.
    var generatorArguments: [String] {
        switch decider {
        case .api(let url, _): ["--api-url", url]
        case .naive(let redisURL, let namespace): ["--naive", "--redis-url", redisURL, "--namespace", namespace]
        }
    }

    /// The key goes to the generators in their environment, not on their command line, which any user can read.
    var generatorEnvironment: [String: String] {
        guard case .api(_, let key) = decider else { return [:] }
        return ["KILN_API_KEY": key]
    }
}
