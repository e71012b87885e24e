import KilnCore

/// Talevonia's colours: a night-sky indigo to plum, lit by amber and rose.
enum ShareCardPalette {
    static let night = ChatColor(0x1B1440)
    static let violet = ChatColor(0x4C2A85)
    static let plum = ChatColor(0x8A2F6B)
    static let amber = ChatColor(0xF4B860)
    static let rose = ChatColor(0xE86A92)
    static let cream = ChatColor(0xFFF6E9)
    static let lavender = ChatColor(0xD9D0F0)
}
