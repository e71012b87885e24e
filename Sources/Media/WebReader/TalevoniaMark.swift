/// Talevonia's mark, a path that forks in two (the app's branching stories) on an amber-to-rose tile, as geometry on
/// a unit square: written here as SVG for the web reader's pages, and drawn with Cairo on the share cards (in
/// `Documents`) from the same numbers.
public enum TalevoniaMark {
    /// The tile's corner radius.
    public static let cornerRadius = 0.28
    /// The width of the path's strokes.
    public static let strokeWidth = 0.09
    /// The path: a stem that forks left and right, each stroke a polyline.
    public static let strokes: [[(x: Double, y: Double)]] = [[(0.5, 0.78), (0.5, 0.56), (0.3, 0.34)], [(0.5, 0.56), (0.7, 0.34)]]
    /// The dots at the path's three ends.
    public static let dots: [(x: Double, y: Double, radius: Double)] = [(0.3, 0.31, 0.09), (0.7, 0.31, 0.09), (0.5, 0.79, 0.065)]
    /// The tile's diagonal gradient, from its top-left corner to its bottom-right one.
    public static let tile = (from: TalevoniaPalette.amber, to: TalevoniaPalette.rose)
    /// The colour of the path and the dots.
    public static let ink = TalevoniaPalette.night

    /// The mark as inline SVG on a 100-unit square, shown at `size` CSS pixels; decorative, so hidden from screen readers.
    /// The gradient's id is fixed: put the mark on a page once.
    public static func svg(size: Int) -> String {
        func unit(_ value: Double) -> String { String(Int((value * 100).rounded())) }
        let paths = strokes.map { stroke in
            "M" + stroke.map { "\(unit($0.x)) \(unit($0.y))" }.joined(separator: "L")
        }.joined()
        let circles = dots.map { "<circle cx=\"\(unit($0.x))\" cy=\"\(unit($0.y))\" r=\"\(unit($0.radius))\"/>" }.joined()
        return """
            <svg class="mark" viewBox="0 0 100 100" width="\(size)" height="\(size)" aria-hidden="true">\
            <defs><linearGradient id="talevonia-tile" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="\(hex(tile.from))"/>\
            <stop offset="1" stop-color="\(hex(tile.to))"/></linearGradient></defs>\
            <rect width="100" height="100" rx="\(unit(cornerRadius))" fill="url(#talevonia-tile)"/>\
            <path d="\(paths)" fill="none" stroke="\(hex(ink))" stroke-width="\(unit(strokeWidth))" stroke-linecap="round" stroke-linejoin="round"/>\
            <g fill="\(hex(ink))">\(circles)</g></svg>
            """
    }

    /// `#RRGGBB`.
    private static func hex(_ rgb: UInt32) -> String {
        let digits = String(rgb, radix: 16, uppercase: true)
        return "#" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }
}
