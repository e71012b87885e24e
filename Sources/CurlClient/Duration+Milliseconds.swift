extension Duration {
    /// Whole milliseconds for libcurl's `*_MS` options, at least 1, because libcurl reads 0 as "no limit".
    var curlMilliseconds: Int {
        let (seconds, attoseconds) = self.components
        if seconds < 0 { return 1 }
        if seconds >= Int64.max / 1000 { return Int.max }
        return max(1, Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    }
}
