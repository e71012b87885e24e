public import KilnCore

/// Talevonia's colours: a night-sky indigo to plum, lit by amber and rose. The share cards paint with them and the
/// mark's SVG names them, so both show the same brand.
public enum TalevoniaPalette {
    public static let night = ChatColor(0x1B1440)
    public static let violet = ChatColor(0x4C2A85)
    public static let plum = ChatColor(0x8A2F6B)
    public static let amber = ChatColor(0xF4B860)
    public static let rose = ChatColor(0xE86A92)
    public static let cream = ChatColor(0xFFF6E9)
    public static let lavender = ChatColor(0xD9D0F0)
}
