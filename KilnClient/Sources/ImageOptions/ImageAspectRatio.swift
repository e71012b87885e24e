public import JobVocabulary

/// The shapes an image may have.
public enum ImageAspectRatio: String, Codable, Sendable, InputChoice {
    case square = "1:1"
    case portrait = "3:4"
    case landscape = "4:3"
    case tall = "9:16"
    case wide = "16:9"

    /// Width and height for a long side of `longSide` pixels, both multiples of 16 (what image models accept).
    public func size(longSide: Int) -> (width: Int, height: Int) {
        let (across, down): (Double, Double) =
            switch self {
            case .square: (1, 1)
            case .portrait: (3, 4)
            case .landscape: (4, 3)
            case .tall: (9, 16)
            case .wide: (16, 9)
            }
        func multipleOf16(_ value: Double) -> Int { Int((value / 16).rounded()) * 16 }
        let scale = Double(longSide) / max(across, down)
        return (multipleOf16(across * scale), multipleOf16(down * scale))
    }
}
