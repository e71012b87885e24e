import Drawing
import WebReader

/// Talevonia's colours (``TalevoniaPalette``) as the share cards paint them.
enum ShareCardPalette {
    static let night = RGBColor(TalevoniaPalette.night)
    static let violet = RGBColor(TalevoniaPalette.violet)
    static let plum = RGBColor(TalevoniaPalette.plum)
    static let amber = RGBColor(TalevoniaPalette.amber)
    static let rose = RGBColor(TalevoniaPalette.rose)
    static let cream = RGBColor(TalevoniaPalette.cream)
    static let lavender = RGBColor(TalevoniaPalette.lavender)
}
