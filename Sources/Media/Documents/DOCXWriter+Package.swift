import WebReader

/// The package's plumbing: content types, relationships, core properties and the font table.
extension DOCXWriter {
    func contentTypes(imageFormats: [DocumentImage.Format]) -> String {
        let imageDefaults = Set(imageFormats).sorted { $0.rawValue < $1.rawValue }.map { format in
            #"<Default Extension="\#(format.fileExtension)" ContentType="\#(format.mediaType)"/>"#
        }
        let wordprocessing = "application/vnd.openxmlformats-officedocument.wordprocessingml"
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
            <Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
            <Default Extension="xml" ContentType="application/xml"/>\
            \(imageDefaults.joined())\
            <Override PartName="/word/document.xml" ContentType="\(wordprocessing).document.main+xml"/>\
            <Override PartName="/word/styles.xml" ContentType="\(wordprocessing).styles+xml"/>\
            <Override PartName="/word/fontTable.xml" ContentType="\(wordprocessing).fontTable+xml"/>\
            <Override PartName="/word/footer1.xml" ContentType="\(wordprocessing).footer+xml"/>\
            <Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>\
            </Types>
            """
    }

    var packageRelationships: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <Relationships xmlns="\(Self.packageRelationshipsNamespace)">\
        <Relationship Id="rId1" Type="\(Self.officeRelationships)/officeDocument" Target="word/document.xml"/>\
        <Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" \
        Target="docProps/core.xml"/>\
        </Relationships>
        """
    }

    func documentRelationships(images: [DocumentImage]) -> String {
        let imageRelationships = images.enumerated().map { index, image in
            #"<Relationship Id="\#(Self.relationshipID(ofImageAt: index))" Type="\#(Self.officeRelationships)/image" "#
                + #"Target="media/\#(image.name.xmlEscaped)"/>"#
        }
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <Relationships xmlns="\(Self.packageRelationshipsNamespace)">\
            <Relationship Id="rId1" Type="\(Self.officeRelationships)/styles" Target="styles.xml"/>\
            <Relationship Id="rId2" Type="\(Self.officeRelationships)/fontTable" Target="fontTable.xml"/>\
            <Relationship Id="\(Self.footerRelationshipID)" Type="\(Self.officeRelationships)/footer" Target="footer1.xml"/>\
            \(imageRelationships.joined())\
            </Relationships>
            """
    }

    /// The footer's relationship: named, so the pictures' numbered ones stay as they are.
    static let footerRelationshipID = "rIdFooter"

    /// The footer of every page but the title page (`titlePg` gives that one an empty footer of its own): the page's
    /// number, centred, as a `PAGE` field every reader fills in.
    var pageNumberFooter: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <w:ftr xmlns:w="\(Self.wordprocessingML)"><w:p><w:pPr><w:jc w:val="center"/></w:pPr>\
        <w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> PAGE </w:instrText></w:r>\
        <w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>2</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>\
        </w:p></w:ftr>
        """
    }

    /// No dates: the same document gives the same file, and the export's time is the object's, not the text's.
    func coreProperties(of document: Document) -> String {
        let creator = document.author.map { "<dc:creator>\($0.xmlEscaped)</dc:creator>" } ?? ""
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" \
            xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\
            <dc:title>\(document.title.xmlEscaped)</dc:title>\(creator)<dc:language>\(document.language.xmlEscaped)</dc:language>\
            </cp:coreProperties>
            """
    }

    /// Inter is not on most readers' machines: the font table tells Word to substitute a sans-serif (Arial) rather than
    /// its default serif. Arial also carries the Hebrew and Arabic letters Inter lacks (see ``DOCXWriter/styles``).
    var fontTable: String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <w:fonts xmlns:w="\(Self.wordprocessingML)">\
        <w:font w:name="\(Self.bodyFont)"><w:altName w:val="\(Self.fallbackFont)"/><w:family w:val="swiss"/><w:pitch w:val="variable"/></w:font>\
        <w:font w:name="\(Self.fallbackFont)"><w:panose1 w:val="020B0604020202020204"/><w:charset w:val="00"/><w:family w:val="swiss"/>\
        <w:pitch w:val="variable"/></w:font>\
        </w:fonts>
        """
    }
}
