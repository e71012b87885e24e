extension Duration {
    /// Whole milliseconds, rounded down: what Redis's `PX`, `PEXPIRE` and the queue scripts take.
    public var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
