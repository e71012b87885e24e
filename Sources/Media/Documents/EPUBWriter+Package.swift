import Foundation
import WebReader

/// The package: the container file pointing at the package document, whose metadata, manifest and spine describe the
/// book, and the navigation document (the table of contents).
extension EPUBWriter {
    var container: String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">\
        <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>\
        </container>
        """
    }

    func packageDocument(of document: Document, chapters: [Chapter], modified: Date) -> String {
        // A UUID identifier is written as a URN, the form EPUB's examples and most reading systems expect.
        let identifier = UUID(uuidString: document.identifier).map { "urn:uuid:\($0.uuidString.lowercased())" } ?? document.identifier
        // `.iso8601` is the form EPUB's dcterms:modified requires, CCYY-MM-DDThh:mm:ssZ: UTC, whole seconds.
        let modifiedTime = modified.formatted(.iso8601)
        let creator = document.author.map { "<dc:creator>\($0.xmlEscaped)</dc:creator>" } ?? ""
        let pages =
            [
                #"<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>"#,
                #"<item id="style" href="\#(Self.styleSheetFile)" media-type="text/css"/>"#,
                #"<item id="title-page" href="\#(Self.titlePageFile)" media-type="application/xhtml+xml"/>"#,
            ]
            + chapters.enumerated().map { index, chapter in
                #"<item id="section-\#(index + 1)" href="\#(chapter.file)" media-type="application/xhtml+xml"/>"#
            }
        let images = document.images.enumerated().map { index, image in
            let properties = image == document.cover ? #" properties="cover-image""# : ""
            let href = Self.path(of: image).xmlEscaped
            return #"<item id="image-\#(index + 1)" href="\#(href)" media-type="\#(image.format.mediaType)"\#(properties)/>"#
        }
        let spine = [#"<itemref idref="title-page"/>"#] + chapters.indices.map { #"<itemref idref="section-\#($0 + 1)"/>"# }
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" \
            xml:lang="\(document.language.xmlEscaped)">\
            <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">\
            <dc:identifier id="book-id">\(identifier.xmlEscaped)</dc:identifier>\
            <dc:title>\(document.title.xmlEscaped)</dc:title>\
            <dc:language>\(document.language.xmlEscaped)</dc:language>\(creator)\
            <meta property="dcterms:modified">\(modifiedTime)</meta>\
            </metadata>\
            <manifest>\((pages + images).joined())</manifest>\
            <spine>\(spine.joined())</spine>\
            </package>
            """
    }

    func navigation(of document: Document, chapters: [Chapter]) -> String {
        let entries = chapters.map { chapter in
            #"<li><a href="\#(chapter.file)">\#(chapter.title.xmlEscaped)</a></li>"#
        }
        return xhtmlPage(
            title: document.title, language: document.language,
            body: """
                <nav epub:type="toc" id="toc"><h1 dir="auto">\(document.title.xmlEscaped)</h1><ol>\(entries.joined())</ol></nav>
                """)
    }
}
