extension Duration {
    /// The duration in seconds, as the benchmarks' and load tests' figures print it.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
