/// An opaque sRGB colour, written `#RRGGBB` in inputs.
public struct ChatColor: Sendable, Equatable {
    public let red: Double
    public let green: Double
    public let blue: Double

    public init(red: Double, green: Double, blue: Double) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// `0xRRGGBB`.
    public init(_ rgb: UInt32) {
        self.init(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255, blue: Double(rgb & 0xFF) / 255)
    }

    /// `#RRGGBB`; nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == 7, hex.hasPrefix("#"), hex.dropFirst().allSatisfy(\.isHexDigit), let rgb = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        self.init(rgb)
    }
}
