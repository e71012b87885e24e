import Glibc

/// The integrated loudness of a 48 kHz mono signal as ITU-R BS.1770-4 and EBU R 128 define it, and as ffmpeg's
/// `ebur128` filter measures it: the signal K-weighted (a high shelf of about +4 dB above 2 kHz, a high-pass below
/// 100 Hz), its mean square over 400 ms blocks every 100 ms, blocks under −70 LUFS left out, then blocks more than
/// 10 LU under the mean of the rest left out.
///
/// The silence between a chat's sounds falls under the gates, so the figure is the loudness of the sounds themselves.
public enum LoudnessMeter {
    /// The filters' coefficients as BS.1770 gives them at 48 kHz.
    private static let shelf = Biquad(
        b: (1.535_124_859_586_97, -2.691_696_189_406_38, 1.198_392_810_852_85), a: (-1.690_659_293_182_41, 0.732_480_775_845_85))
    private static let highPass = Biquad(b: (1, -2, 1), a: (-1.990_047_454_833_98, 0.990_072_250_366_21))
    private static let blockLength = 19_200
    private static let hop = 4_800

    /// LUFS, or nil when no block passes the gates (silence, or shorter than one 400 ms block).
    public static func integratedLoudness(of samples: [Float]) -> Double? {
        guard samples.count >= blockLength else { return nil }
        var shelf = Self.shelf
        var highPass = Self.highPass
        // Mean squares per 100 ms hop, summed four at a time into the overlapping 400 ms blocks.
        var hops: [Double] = []
        hops.reserveCapacity(samples.count / hop)
        var sum = 0.0
        for (index, sample) in samples.enumerated() {
            let weighted = highPass.next(shelf.next(Double(sample)))
            sum += weighted * weighted
            if (index + 1) % hop == 0 {
                hops.append(sum)
                sum = 0
            }
        }
        let perHop = blockLength / hop
        let blocks = (0...(hops.count - perHop)).map { start in hops[start..<(start + perHop)].reduce(0, +) / Double(blockLength) }
        let absolute = blocks.filter { loudness(ofMeanSquare: $0) > -70 }
        guard !absolute.isEmpty else { return nil }
        let relativeGate = loudness(ofMeanSquare: absolute.reduce(0, +) / Double(absolute.count)) - 10
        let gated = absolute.filter { loudness(ofMeanSquare: $0) > relativeGate }
        return loudness(ofMeanSquare: gated.reduce(0, +) / Double(gated.count))
    }

    private static func loudness(ofMeanSquare meanSquare: Double) -> Double {
        meanSquare > 0 ? -0.691 + 10 * log10(meanSquare) : -.infinity
    }

    /// A second-order filter in direct form I.
    private struct Biquad {
        let b: (Double, Double, Double)
        let a: (Double, Double)
        private var x1 = 0.0
        private var x2 = 0.0
        private var y1 = 0.0
        private var y2 = 0.0

        init(b: (Double, Double, Double), a: (Double, Double)) {
            self.b = b
            self.a = a
        }

        mutating func next(_ x: Double) -> Double {
            let y = b.0 * x + b.1 * x1 + b.2 * x2 - a.0 * y1 - a.1 * y2
            (x2, x1, y2, y1) = (x1, x, y1, y)
            return y
        }
    }
}
