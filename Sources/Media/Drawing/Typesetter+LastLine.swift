import CPangoCairo

extension Typesetter {
    /// Lays a wrapped `layout` of `text` out again when its last line holds one word alone ("go."): Pango may then not
    /// break between the last two words, so the line before gives up its last word, as long as it keeps two of its own
    /// and the two words fit on a line.
    static func keepLastWordsTogether(_ layout: OpaquePointer, text: String) {
        let count = pango_layout_get_line_count(layout)
        guard count > 1, let last = pango_layout_get_line_readonly(layout, count - 1),
            let previous = pango_layout_get_line_readonly(layout, count - 2)
        else { return }
        let bytes = Array(text.utf8)
        func words(_ range: Range<Int>) -> [Substring] {
            String(decoding: bytes[range], as: UTF8.self).split(whereSeparator: \.isWhitespace)
        }
        let previousStart = Int(previous.pointee.start_index)
        let lastStart = Int(last.pointee.start_index)
        guard words(lastStart..<bytes.count).count == 1, let moved = words(previousStart..<lastStart).last,
            words(previousStart..<lastStart).count >= 3
        else { return }
        // Where the word that moves down starts: after the last whitespace before the last line's word.
        let before = String(decoding: bytes[..<lastStart], as: UTF8.self)
        let trailingSpace = before.reversed().prefix(while: \.isWhitespace).reduce(0) { $0 + $1.utf8.count }
        let wordStart = lastStart - trailingSpace - moved.utf8.count
        // Pango drops the break opportunities strictly inside the range: the one before the last word among them.
        let attributes = pango_attr_list_new()
        defer { pango_attr_list_unref(attributes) }
        let noBreaks = pango_attr_allow_breaks_new(0)!
        noBreaks.pointee.start_index = UInt32(wordStart)
        noBreaks.pointee.end_index = UInt32(bytes.count)
        // The list owns the attribute from here.
        pango_attr_list_insert(attributes, noBreaks)
        pango_layout_set_attributes(layout, attributes)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout, nil, &logical)
        // Two words wider than the line would run past it: leave the word alone rather.
        if logical.width > pango_layout_get_width(layout) || pango_layout_get_line_count(layout) != count {
            pango_layout_set_attributes(layout, nil)
        }
    }
}
