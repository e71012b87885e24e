extension Duration {
    /// Whole milliseconds for libcurl's `*_MS` options, at least 1, because libcurl reads 0 as "no limit".
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = self.components
        if seconds < 0 { return 1 }
        if seconds >= Int64.max / 1000 { return Int.max }
        return max(1, Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}

extension Duration {
    /// Whole nanoseconds, 0 for a negative duration, saturating at the largest representable value.
    var nanoseconds: UInt64 {
        let (seconds, attoseconds) = self.components
        if seconds < 0 { return 0 }
        if seconds >= Int64(UInt64.max / 1_000_000_000) - 1 { return UInt64.max }
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }
}
