import Glibc

/// Holds a signal's samples within a ceiling by turning its gain down smoothly just before each peak and back up
/// after it, instead of clipping the peak (which would crackle).
///
/// The gain each sample needs is spread back over a millisecond of look-ahead and its recovery slowed to a release of
/// 50 ms, then smoothed by a moving average as long as the look-ahead. Every gain that average takes in is at most the
/// one the peak needs, so no sample ends above the ceiling.
struct PeakLimiter {
    /// The largest magnitude a sample may keep, in full scale (1.0).
    let ceiling: Float
    let lookAhead = 48
    let releaseSeconds: Float = 0.05
    let sampleRate: Float

    func apply(to samples: inout [Float]) {
        let count = samples.count
        guard count > 0 else { return }
        // The gain for each sample: the least that any sample in its look-ahead needs. Most samples need none, so the
        // window is spread back from the few that do.
        var needed = [Float](repeating: 1, count: count)
        for index in 0..<count where abs(samples[index]) > ceiling {
            let gain = ceiling / abs(samples[index])
            for earlier in max(0, index - lookAhead + 1)...index where gain < needed[earlier] {
                needed[earlier] = gain
            }
        }
        // The gain recovers towards 1 with the release's time constant, never faster than the peaks allow.
        let recovery = exp(-1 / (releaseSeconds * sampleRate))
        var gain: Float = 1
        for index in 0..<count {
            gain = min(needed[index], 1 - (1 - gain) * recovery)
            needed[index] = gain
        }
        // The moving average of the last `lookAhead` gains (1 before the start) multiplies each sample.
        // The sum in Double: rounding errors of millions of Float additions and subtractions would drift.
        var sum = Double(lookAhead)
        for index in 0..<count {
            sum += Double(needed[index]) - Double(index >= lookAhead ? needed[index - lookAhead] : 1)
            let limited = samples[index] * Float(min(1, sum / Double(lookAhead)))
            samples[index] = min(ceiling, max(-ceiling, limited))
        }
    }
}
