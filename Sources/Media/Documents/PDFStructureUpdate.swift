/// What Cairo 1.16's structure tags cannot say, added to the PDF it wrote: each Figure element's alternative text
/// (`/Alt`), a Document element at the root of the structure tree, the document's language (the catalog's `/Lang`) and
/// that it is tagged (`/MarkInfo`). Cairo 1.16 writes a structure element's type, parent,
/// page and content and nothing else (its library holds no `/Alt`), so this appends new versions of those objects after
/// the file with a cross-reference section of their own: a PDF incremental update, which every reader applies.
///
/// It reads the file as Cairo 1.16 writes it (one object per `N 0 obj … endobj`, uncompressed structure elements, a
/// classic `xref` table): pure byte work, without I/O.
struct PDFStructureUpdate {
    /// One per Figure element, in the order the pictures were drawn (Cairo writes the elements in that order).
    let alternativeTexts: [String]
    /// A BCP 47 tag ("en", "pt-BR"), letters, digits and hyphens only.
    let language: String

    /// `pdf` with the update appended.
    /// - Throws: ``DocumentError/renderingFailed(_:)`` when the file does not hold one Figure element per alternative
    ///   text, a catalog and a trailer (a Cairo that writes otherwise).
    func apply(to pdf: [UInt8]) throws -> [UInt8] {
        let elements = Self.objects(in: pdf, starting: "<< /Type /StructElem\n")
        let figureMarker = Array("   /S /Figure\n".utf8)
        let figureCount = elements.count { $0.bytes.starts(with: Array("\($0.number) 0 obj\n<< /Type /StructElem\n".utf8) + figureMarker) }
        guard figureCount == alternativeTexts.count else {
            throw DocumentError.renderingFailed("PDF has \(figureCount) Figure elements for \(alternativeTexts.count) pictures")
        }
        guard let catalog = Self.objects(in: pdf, starting: "<< /Type /Catalog\n").first,
            let root = Self.objects(in: pdf, starting: "<< /Type /StructTreeRoot\n").first,
            let kidsStart = Self.firstIndex(of: Array("   /K [".utf8), in: root.bytes, from: 0),
            let kidsEnd = Self.firstIndex(of: Array("]".utf8), in: root.bytes, from: kidsStart),
            let trailerStart = Self.lastIndex(of: "\ntrailer\n", in: pdf),
            let startxref = Self.lastIndex(of: "\nstartxref\n", in: pdf),
            let previousXref = Self.number(in: pdf, after: startxref + 11)
        else { throw DocumentError.renderingFailed("PDF without a structure tree, a catalog or a trailer") }
        let dictionary = Array(pdf[(trailerStart + 9)..<startxref])
        guard let sizeStart = Self.firstIndex(of: Array("/Size ".utf8), in: dictionary, from: 0),
            let size = Self.number(in: dictionary, after: sizeStart + 6),
            let end = Self.lastIndex(of: ">>", in: dictionary)
        else { throw DocumentError.renderingFailed("PDF trailer") }

        // Cairo's top-level elements become the children of one Document element, a new object, as PDF/UA and poppler
        // want: Cairo writes one only for a Document tag, which would have to stay open across pages and so hold the
        // footers (Cairo 1.16 marks no artifacts).
        let document = size
        var changed: [(number: Int, bytes: [UInt8])] = [
            (
                document,
                Array("\(document) 0 obj\n<< /Type /StructElem\n   /S /Document\n   /P \(root.number) 0 R\n".utf8)
                    + root.bytes[kidsStart..<(kidsEnd + 1)] + Array("\n>>\nendobj".utf8)
            ),
            (root.number, Array(root.bytes[..<kidsStart]) + Array("   /K [ \(document) 0 R ]".utf8) + Array(root.bytes[(kidsEnd + 1)...])),
        ]
        var texts = alternativeTexts.makeIterator()
        let topLevel = Array("   /P \(root.number) 0 R\n".utf8)
        for element in elements {
            var bytes = element.bytes
            if bytes.starts(with: Array("\(element.number) 0 obj\n<< /Type /StructElem\n".utf8) + figureMarker), let text = texts.next() {
                bytes = Self.inserting("   /Alt \(Self.textString(text))\n", after: "/S /Figure\n", in: bytes)
            }
            if let parent = Self.firstIndex(of: topLevel, in: bytes, from: 0) {
                bytes.replaceSubrange(parent..<(parent + topLevel.count), with: Array("   /P \(document) 0 R\n".utf8))
            }
            if bytes != element.bytes { changed.append((element.number, bytes)) }
        }
        // Cairo marks the file as tagged (`/MarkInfo`) only when its first tag is a Document element.
        let marked = Self.firstIndex(of: Array("/MarkInfo".utf8), in: catalog.bytes, from: 0) == nil ? "   /MarkInfo << /Marked true >>\n" : ""
        changed.append((catalog.number, Self.inserting("   /Lang (\(language))\n\(marked)", after: "/Type /Catalog\n", in: catalog.bytes)))
        changed.sort { $0.number < $1.number }

        var output = pdf
        if output.last != UInt8(ascii: "\n") { output.append(UInt8(ascii: "\n")) }
        var table = "xref\n"
        for object in changed {
            // Each entry exactly 20 bytes: a 10-digit offset, the generation, "n", a space and the line end.
            let offset = String(output.count)
            table += "\(object.number) 1\n\(String(repeating: "0", count: 10 - offset.count))\(offset) 00000 n \n"
            output += object.bytes + [UInt8(ascii: "\n")]
        }
        let xref = output.count
        // The trailer as before (root, info), one object larger, pointing back at the original cross-reference table.
        let trailer = String(decoding: dictionary[..<end], as: UTF8.self)
            .replacingFirst("/Size \(size)", with: "/Size \(size + 1)")
        table += "trailer\n\(trailer)   /Prev \(previousXref)\n>>\nstartxref\n\(xref)\n%%EOF\n"
        output += Array(table.utf8)
        return output
    }

    /// The decimal number that starts at `index`.
    private static func number(in bytes: [UInt8], after index: Int) -> Int? {
        Int(String(decoding: bytes[index...].prefix { (0x30...0x39).contains($0) }, as: UTF8.self))
    }

    /// A PDF text string: UTF-16BE with its byte order mark, in hexadecimal, so any character passes unescaped.
    static func textString(_ text: String) -> String {
        let hex = text.utf16.map { unit in
            let digits = String(unit, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        return "<FEFF\(hex.joined())>"
    }

    /// Every object whose body starts with `prefix`, in file order: its number and its bytes from `N 0 obj` to `endobj`.
    private static func objects(in pdf: [UInt8], starting prefix: String) -> [(number: Int, bytes: [UInt8])] {
        let marker = Array((" 0 obj\n" + prefix).utf8)
        var found: [(Int, [UInt8])] = []
        var index = 0
        while let start = firstIndex(of: marker, in: pdf, from: index) {
            // The object number is the run of digits before the marker, at the start of its line.
            var numberStart = start
            while numberStart > 0, (0x30...0x39).contains(pdf[numberStart - 1]) { numberStart -= 1 }
            let end = firstIndex(of: Array("endobj".utf8), in: pdf, from: start).map { $0 + 6 } ?? pdf.count
            if let number = Int(String(decoding: pdf[numberStart..<start], as: UTF8.self)) {
                found.append((number, Array(pdf[numberStart..<end])))
            }
            index = end
        }
        return found
    }

    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
        var index = start
        while index <= bytes.count - pattern.count {
            if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }

    /// `object` with `text` inserted after the first `marker` (always there: the object was found by it).
    private static func inserting(_ text: String, after marker: String, in object: [UInt8]) -> [UInt8] {
        guard let index = firstIndex(of: Array(marker.utf8), in: object, from: 0) else { return object }
        let split = index + marker.utf8.count
        return Array(object[..<split]) + Array(text.utf8) + Array(object[split...])
    }

    private static func lastIndex(of text: String, in bytes: [UInt8]) -> Int? {
        let pattern = Array(text.utf8)
        guard bytes.count >= pattern.count else { return nil }
        return stride(from: bytes.count - pattern.count, through: 0, by: -1).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        let characters = Array(self)
        let pattern = Array(target)
        guard pattern.count <= characters.count,
            let start = (0...(characters.count - pattern.count)).first(where: { characters[$0..<($0 + pattern.count)].elementsEqual(pattern) })
        else { return self }
        return String(characters[..<start]) + replacement + String(characters[(start + pattern.count)...])
    }
}
