import WebReader

/// Paragraphs, their runs and inline pictures, as word/document.xml holds them.
extension DOCXWriter {
    /// A paragraph in `style` (Normal when nil). A paragraph whose first letter is right-to-left reads right to left
    /// (`w:bidi`), as HTML's `dir="auto"` would decide.
    func paragraph(_ text: String, style: String? = nil, bold: Bool = false) -> String {
        let spans = Self.directionalSpans(of: text)
        let firstStrong = text.unicodeScalars.lazy.compactMap(\.strongDirection).first
        let properties = (style.map { #"<w:pStyle w:val="\#($0)"/>"# } ?? "") + (firstStrong == .rightToLeft ? "<w:bidi/>" : "")
        let runs = spans.map { span in
            let runProperties = (bold ? "<w:b/><w:bCs/>" : "") + (span.rightToLeft ? "<w:rtl/>" : "")
            return "<w:r>\(runProperties.isEmpty ? "" : "<w:rPr>\(runProperties)</w:rPr>")"
                + #"<w:t xml:space="preserve">\#(span.text.xmlEscaped)</w:t></w:r>"#
        }
        return "<w:p>\(properties.isEmpty ? "" : "<w:pPr>\(properties)</w:pPr>")\(runs.joined())</w:p>"
    }

    /// `text` cut where its direction changes. A right-to-left span runs from a Hebrew or Arabic letter to the last such
    /// letter before the next left-to-right one, so the spaces and marks inside "שלום עולם" stay in it while the quotes
    /// and spaces around it stay in the left-to-right text. Word lays out and shapes (`w:rtl`) each span on its own.
    static func directionalSpans(of text: String) -> [(text: String, rightToLeft: Bool)] {
        let scalars = Array(text.unicodeScalars)
        var isRightToLeft = [Bool](repeating: false, count: scalars.count)
        var spanStart: Int?
        for (index, scalar) in scalars.enumerated() {
            switch scalar.strongDirection {
            case .rightToLeft:
                if let start = spanStart {
                    for covered in start...index { isRightToLeft[covered] = true }
                }
                spanStart = index
                isRightToLeft[index] = true
            case .leftToRight:
                spanStart = nil
            case nil:
                continue
            }
        }
        var spans: [(text: String, rightToLeft: Bool)] = []
        for (scalar, rightToLeft) in zip(scalars, isRightToLeft) {
            if spans.last?.rightToLeft == rightToLeft {
                spans[spans.count - 1].text.unicodeScalars.append(scalar)
            } else {
                spans.append((String(scalar), rightToLeft))
            }
        }
        return spans
    }

    /// A centred paragraph holding one inline picture, as large as it is at 96 dpi but no wider than the text column
    /// and no taller than two thirds of it (leaving room for a caption or the title), keeping its aspect ratio.
    func pictureParagraph(_ image: DocumentImage, relationshipID: String, drawingID: Int, description: String, keepWithCaption: Bool) -> String {
        let emuPerTwip = 635
        let emuPerPixel = 9_525
        let scale = min(
            1, Double(Self.textWidth * emuPerTwip) / Double(image.width * emuPerPixel),
            Double(Self.textHeight * emuPerTwip * 2 / 3) / Double(image.height * emuPerPixel))
        let width = Int((Double(image.width * emuPerPixel) * scale).rounded())
        let height = Int((Double(image.height * emuPerPixel) * scale).rounded())
        let name = image.name.xmlEscaped
        return """
            <w:p><w:pPr>\(keepWithCaption ? "<w:keepNext/>" : "")<w:jc w:val="center"/></w:pPr><w:r><w:drawing>\
            <wp:inline distT="0" distB="0" distL="0" distR="0"><wp:extent cx="\(width)" cy="\(height)"/>\
            <wp:docPr id="\(drawingID)" name="Picture \(drawingID)" descr="\(description.xmlEscaped)"/>\
            <wp:cNvGraphicFramePr><a:graphicFrameLocks noChangeAspect="1"/></wp:cNvGraphicFramePr>\
            <a:graphic><a:graphicData uri="\(Self.pictureML)"><pic:pic>\
            <pic:nvPicPr><pic:cNvPr id="\(drawingID)" name="\(name)"/><pic:cNvPicPr/></pic:nvPicPr>\
            <pic:blipFill><a:blip r:embed="\(relationshipID)"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>\
            <pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="\(width)" cy="\(height)"/></a:xfrm>\
            <a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>\
            </pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>
            """
    }
}

extension DOCXWriter {
    /// The direction a character forces on text around it, per the Unicode bidirectional classes that matter here.
    fileprivate enum StrongDirection {
        case leftToRight, rightToLeft
    }
}

extension Unicode.Scalar {
    /// Right-to-left for the Hebrew, Arabic, Syriac, Thaana, N'Ko and related blocks and their presentation forms;
    /// left-to-right for other letters; nil for spaces, digits, punctuation, symbols and emoji, which take their neighbours'.
    fileprivate var strongDirection: DOCXWriter.StrongDirection? {
        switch value {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: .rightToLeft
        default: properties.isAlphabetic ? .leftToRight : nil
        }
    }
}
