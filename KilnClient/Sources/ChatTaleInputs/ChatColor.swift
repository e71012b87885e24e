/// A character's colour in ChatTale's inputs: opaque sRGB, written `#RRGGBB`.
public struct ChatColor: Sendable, Equatable {
    /// `0xRRGGBB`.
    public let rgb: UInt32

    /// `#RRGGBB`; nil for anything else.
    public init?(hex: String) {
        guard hex.utf8.count == 7, hex.hasPrefix("#"), hex.dropFirst().allSatisfy(\.isHexDigit), let rgb = UInt32(hex.dropFirst(), radix: 16) else {
            return nil
        }
        self.rgb = rgb
    }
}
