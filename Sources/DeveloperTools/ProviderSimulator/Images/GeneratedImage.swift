/// A picture the simulator "generates": a diagonal gradient with soft bands whose colours come from a hash of the
/// prompt, so the same prompt always gives the same image and different prompts visibly differ.
///
/// Its file name carries everything needed to draw it again (`<seed hex>-<width>x<height>.png`), so served URLs
/// need no storage and survive a restart.
struct GeneratedImage: Sendable, Equatable {
    /// The largest side drawn; real models stop well below it, and it bounds the memory one request can take.
    static let maxSide = 4096

    let seed: UInt64
    let width: Int
    let height: Int

    init(prompt: String, index: Int, width: Int, height: Int) {
        self.seed = SeededGenerator.fnv1a("\(prompt)\n\(index)")
        self.width = min(max(width, 1), Self.maxSide)
        self.height = min(max(height, 1), Self.maxSide)
    }

    /// Parses a file name made by ``fileName``.
    init?(fileName: String) {
        guard fileName.hasSuffix(".png") else { return nil }
        let parts = fileName.dropLast(4).split(separator: "-")
        guard parts.count == 2, let seed = UInt64(parts[0], radix: 16) else { return nil }
        let size = parts[1].split(separator: "x")
        guard size.count == 2, let width = Int(size[0]), let height = Int(size[1]), (1...Self.maxSide).contains(width),
            (1...Self.maxSide).contains(height)
        else { return nil }
        self.seed = seed
        self.width = width
        self.height = height
    }

    var fileName: String { "\(String(self.seed, radix: 16))-\(self.width)x\(self.height).png" }

    /// The image as PNG bytes.
    var png: [UInt8] {
        var generator = SeededGenerator(seed: self.seed)
        let start = (0..<3).map { _ in Double(UInt8.random(in: 0...255, using: &generator)) }
        let end = (0..<3).map { _ in Double(UInt8.random(in: 0...255, using: &generator)) }
        let bands = Double(Int.random(in: 3...9, using: &generator))
        var rgb = [UInt8](repeating: 0, count: self.width * self.height * 3)
        let span = Double(max(self.width + self.height - 2, 1))
        var offset = 0
        for y in 0..<self.height {
            for x in 0..<self.width {
                let t = Double(x + y) / span
                // A triangle wave over the gradient draws the bands without trigonometry.
                let band = abs((t * bands).truncatingRemainder(dividingBy: 1) - 0.5) * 0.3 + 0.85
                for channel in 0..<3 {
                    let value = (start[channel] + (end[channel] - start[channel]) * t) * band
                    rgb[offset + channel] = UInt8(min(max(value, 0), 255))
                }
                offset += 3
            }
        }
        return PNGEncoder.encode(width: self.width, height: self.height, rgb: rgb)
    }

    /// `WxH` as OpenAI's `size` writes it; `auto` and absent mean 1024x1024.
    static func size(_ text: String?) -> (width: Int, height: Int)? {
        guard let text, text != "auto" else { return (1024, 1024) }
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), (1...maxSide).contains(width), (1...maxSide).contains(height)
        else { return nil }
        return (width, height)
    }
}
