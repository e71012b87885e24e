/// word/styles.xml: the named styles the body uses, with Word's own names so they match its built-in ones.
extension DOCXWriter {
    static let bodyFont = "Inter"
    static let fallbackFont = "Arial"

    /// Sizes are in half-points (`w:sz`), spacing in twips. Right-to-left runs (`w:rtl`) take the complex-script font
    /// (`w:cs`): Arial, since Inter has no Hebrew or Arabic letters and Word picks a run's font by script, not glyph by glyph.
    var styles: String {
        let body = Self.bodyFont
        let fonts = #"<w:rFonts w:ascii="\#(body)" w:hAnsi="\#(body)" w:eastAsia="\#(body)" w:cs="\#(Self.fallbackFont)"/>"#
        func paragraphStyle(_ id: String, name: String, paragraph: String, run: String) -> String {
            """
            <w:style w:type="paragraph" w:styleId="\(id)"><w:name w:val="\(name)"/><w:basedOn w:val="Normal"/><w:next w:val="Normal"/>\
            <w:qFormat/><w:pPr>\(paragraph)</w:pPr><w:rPr>\(run)</w:rPr></w:style>
            """
        }
        let border = #"w:val="single" w:sz="4" w:space="0" w:color="808080""#
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <w:styles xmlns:w="\(Self.wordprocessingML)">\
            <w:docDefaults><w:rPrDefault><w:rPr>\(fonts)<w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr></w:rPrDefault>\
            <w:pPrDefault><w:pPr><w:spacing w:after="160" w:line="276" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults>\
            <w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/>\
            <w:rPr>\(fonts)<w:sz w:val="22"/><w:szCs w:val="22"/></w:rPr></w:style>\
            \(paragraphStyle("Title", name: "Title", paragraph: #"<w:spacing w:before="1200" w:after="240"/><w:jc w:val="center"/>"#,
                             run: #"<w:b/><w:bCs/><w:sz w:val="56"/><w:szCs w:val="56"/>"#))\
            \(paragraphStyle("Subtitle", name: "Subtitle", paragraph: #"<w:spacing w:after="240"/><w:jc w:val="center"/>"#,
                             run: #"<w:color w:val="595959"/><w:sz w:val="30"/><w:szCs w:val="30"/>"#))\
            \(paragraphStyle("Author", name: "Author", paragraph: #"<w:spacing w:after="480"/><w:jc w:val="center"/>"#,
                             run: #"<w:i/><w:iCs/><w:sz w:val="26"/><w:szCs w:val="26"/>"#))\
            \(paragraphStyle("Heading1", name: "heading 1",
                             paragraph: #"<w:keepNext/><w:keepLines/><w:spacing w:before="360" w:after="120"/><w:outlineLvl w:val="0"/>"#,
                             run: #"<w:b/><w:bCs/><w:color w:val="1F3864"/><w:sz w:val="32"/><w:szCs w:val="32"/>"#))\
            \(paragraphStyle("Caption", name: "caption", paragraph: #"<w:spacing w:after="240"/><w:jc w:val="center"/>"#,
                             run: #"<w:i/><w:iCs/><w:color w:val="595959"/><w:sz w:val="18"/><w:szCs w:val="18"/>"#))\
            <w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:uiPriority w:val="99"/>\
            <w:semiHidden/><w:unhideWhenUsed/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/>\
            <w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style>\
            <w:style w:type="table" w:styleId="TableGrid"><w:name w:val="Table Grid"/><w:basedOn w:val="TableNormal"/><w:uiPriority w:val="39"/>\
            <w:pPr><w:spacing w:before="40" w:after="40" w:line="240" w:lineRule="auto"/></w:pPr>\
            <w:tblPr><w:tblBorders><w:top \(border)/><w:left \(border)/><w:bottom \(border)/><w:right \(border)/>\
            <w:insideH \(border)/><w:insideV \(border)/></w:tblBorders></w:tblPr></w:style>\
            </w:styles>
            """
    }
}
