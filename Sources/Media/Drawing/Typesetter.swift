public import CPangoCairo

/// Lays out text with Pango: one font family (`Inter`), colour emoji by fontconfig's fallback to Noto Color Emoji.
/// Hinting is off and metrics unhinted, so a line measures the same at every step of the typing animation.
public final class Typesetter {
    /// Only the text family: naming the emoji font too makes Pango take spaces and digits from it.
    public static let family = "Inter"
    private let fontMap: UnsafeMutablePointer<PangoFontMap>
    private let context: OpaquePointer

    /// - Parameter roundsGlyphPositions: whether Pango rounds each glyph's position to a whole unit (a pixel; a point on
    ///   a PDF page). Rounding keeps pixel text crisp; a PDF wants the font's own advances instead: a glyph moved by a
    ///   rounded fraction of a point leaves a gap poppler takes for a space between right-to-left letters
    ///   ("ש צל צלו" for "שצלצלו"), and the spacing of an 11-point line is visibly uneven.
    public init(roundsGlyphPositions: Bool = true) {
        fontMap = pango_cairo_font_map_new()!
        context = pango_font_map_create_context(fontMap)
        pango_context_set_round_glyph_positions(context, roundsGlyphPositions ? 1 : 0)
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    /// `text` at `size` pixels (points on a PDF page), wrapped at `width` when given.
    /// - Parameters:
    ///   - italic: the family's italic face (captions).
    ///   - maxLines: with `width`, cuts the text after this many lines at a place a line may break (after a whole word),
    ///     with an ellipsis (titles on cards, footers). Only a first word longer than the lines is cut inside.
    ///   - avoidingLoneLastWord: with `width` and no `maxLines`, whether a wrapped text's last line takes the word before its last one when it
    ///     would otherwise hold one word alone (a book's paragraphs).
    ///   - hyphenates: whether a word too long for a line is broken with a hyphen (a book) or, as a phone's chat apps do,
    ///     without one.
    ///   - links: parts of `text` drawn underlined, in `linkColor` when given (else in the text's colour).
    public func layout(
        _ text: String, size: Double, weight: PangoWeight = PANGO_WEIGHT_NORMAL, width: Double? = nil, centred: Bool = false, italic: Bool = false,
        maxLines: Int? = nil, avoidingLoneLastWord: Bool = false, hyphenates: Bool = true, links: [Range<String.Index>] = [],
        linkColor: RGBColor? = nil
    ) -> TextLayout {
        let layout = pango_layout_new(context)!
        let font = pango_font_description_new()
        pango_font_description_set_family(font, Self.family)
        pango_font_description_set_absolute_size(font, size * Double(PANGO_SCALE))
        pango_font_description_set_weight(font, weight)
        if italic { pango_font_description_set_style(font, PANGO_STYLE_ITALIC) }
        pango_layout_set_font_description(layout, font)
        pango_font_description_free(font)
        if centred { pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER) }
        pango_layout_set_text(layout, text, -1)
        if !hyphenates || !links.isEmpty { Self.setAttributes(layout, text: text, hyphenates: hyphenates, links: links, linkColor: linkColor) }
        if let width {
            pango_layout_set_width(layout, Int32(width * Double(PANGO_SCALE)))
            pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
            if let maxLines {
                Self.cut(layout, text: text, toLines: maxLines)
                // A negative height is a number of lines: what still overflows (one long first word) ends in Pango's ellipsis.
                pango_layout_set_height(layout, Int32(-maxLines))
                pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
            } else if avoidingLoneLastWord {
                Self.keepLastWordsTogether(layout, text: text)
            }
        }
        return TextLayout(pointer: layout)
    }

    /// Shortens the layout's text to the longest start that ends where a line may break and, followed by "…", takes at
    /// most `lines` lines; leaves it alone when it fits, or when not even its first word does.
    private static func cut(_ layout: OpaquePointer, text: String, toLines lines: Int) {
        guard pango_layout_get_line_count(layout) > lines else { return }
        // Pango's break opportunities, one per character and one after the last: a break may come before character i.
        var count: Int32 = 0
        guard let attributes = pango_layout_get_log_attrs_readonly(layout, &count) else { return }
        let characters = Array(text.unicodeScalars)
        let breaks = (1..<min(Int(count), characters.count)).filter { attributes[$0].is_line_break != 0 }
        func shortened(_ end: Int) -> String {
            var kept = String(String.UnicodeScalarView(characters[..<end]))
            while let last = kept.last, last.isWhitespace || ",;:—–-".contains(last) { kept.removeLast() }
            return kept + "…"
        }
        func fits(_ end: Int) -> Bool {
            pango_layout_set_text(layout, shortened(end), -1)
            return pango_layout_get_line_count(layout) <= lines
        }
        // The number of lines grows with the text kept: the last break that still fits, by bisection.
        var low = 0
        var high = breaks.count
        while low < high {
            let middle = (low + high) / 2
            if fits(breaks[middle]) { low = middle + 1 } else { high = middle }
        }
        pango_layout_set_text(layout, low > 0 ? shortened(breaks[low - 1]) : text, -1)
    }

    /// Gives `layout` the attributes of ``layout(_:size:weight:width:centred:italic:maxLines:avoidingLoneLastWord:hyphenates:links:linkColor:)``
    /// that Pango keeps apart from the font: no inserted hyphens, and the links' underline and colour (by UTF-8 offset).
    private static func setAttributes(
        _ layout: OpaquePointer, text: String, hyphenates: Bool, links: [Range<String.Index>], linkColor: RGBColor?
    ) {
        let attributes = pango_attr_list_new()
        if !hyphenates { pango_attr_list_insert(attributes, pango_attr_insert_hyphens_new(0)) }
        func channel(_ value: Double) -> UInt16 { UInt16((value * 65535).rounded()) }
        for link in links {
            let start = UInt32(text.utf8.distance(from: text.startIndex, to: link.lowerBound))
            let end = UInt32(text.utf8.distance(from: text.startIndex, to: link.upperBound))
            var marks = [pango_attr_underline_new(PANGO_UNDERLINE_SINGLE)]
            if let linkColor { marks.append(pango_attr_foreground_new(channel(linkColor.red), channel(linkColor.green), channel(linkColor.blue))) }
            for mark in marks {
                mark?.pointee.start_index = start
                mark?.pointee.end_index = end
                pango_attr_list_insert(attributes, mark)
            }
        }
        pango_layout_set_attributes(layout, attributes)
        pango_attr_list_unref(attributes)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }
}
