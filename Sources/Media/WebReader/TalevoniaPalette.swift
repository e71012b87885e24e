/// Talevonia's colours, as `0xRRGGBB`: a night-sky indigo to plum, lit by amber and rose. The mark's SVG writes them
/// as hex and the share cards (in `Documents`) paint them, so both show the same brand.
public enum TalevoniaPalette {
    public static let night: UInt32 = 0x1B1440
    public static let violet: UInt32 = 0x4C2A85
    public static let plum: UInt32 = 0x8A2F6B
    public static let amber: UInt32 = 0xF4B860
    public static let rose: UInt32 = 0xE86A92
    public static let cream: UInt32 = 0xFFF6E9
    public static let lavender: UInt32 = 0xD9D0F0
}
