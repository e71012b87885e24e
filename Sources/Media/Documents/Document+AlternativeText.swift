extension Document {
    /// What the cover says to a reader who cannot see it (HTML's and EPUB's `alt`, DOCX's description): the title.
    var coverAlternativeText: String { title }

    /// What a picture in `section` says to a reader who cannot see it (PDF's `/Alt`, HTML's and EPUB's `alt`, DOCX's
    /// description): its description, else its caption, else "Illustration for" its section's heading (the document's
    /// title in a section without one). Never empty: an empty `alt` would mark an illustration of the story as
    /// decoration, which screen readers skip.
    func alternativeText(description: String?, caption: String?, in section: DocumentSection) -> String {
        description ?? caption ?? "Illustration for \(section.heading ?? title)"
    }
}
