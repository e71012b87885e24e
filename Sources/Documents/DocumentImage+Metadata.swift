extension DocumentImage {
    /// `data` without what cameras and editors write about a picture: in a JPEG the APP1 (EXIF and XMP: where it was
    /// taken, with what, when), APP3–APP13 (IPTC among them), APP15 and comment segments; in a PNG the text, EXIF and
    /// time chunks. The picture itself, and what draws it right (JFIF, the ICC profile, Adobe's colour transform), is
    /// kept. A published page serves its pictures to anyone with the address: nothing about the owner goes with them.
    /// - Returns: nil when the structure cannot be followed to the picture's data (then it is not a picture Kiln uses).
    static func strippingMetadata(_ data: [UInt8], format: Format) -> [UInt8]? {
        switch format {
        case .jpeg: strippingJPEGMetadata(data)
        case .png: strippingPNGMetadata(data)
        }
    }

    private static func strippingJPEGMetadata(_ data: [UInt8]) -> [UInt8]? {
        var kept: [UInt8] = [0xFF, 0xD8]
        var offset = 2
        while offset + 1 < data.count {
            guard data[offset] == 0xFF else { return nil }
            let marker = data[offset + 1]
            switch marker {
            case 0xFF:  // a fill byte before a marker
                offset += 1
            case 0xDA:  // start of scan: the compressed picture and everything after it, as they are
                return kept + data[offset...]
            case 0x01, 0xD0...0xD7:  // markers without a length
                kept += data[offset..<offset + 2]
                offset += 2
            default:
                guard offset + 3 < data.count else { return nil }
                let end = offset + 2 + bigEndian(data, offset + 2, 2)
                guard end <= data.count else { return nil }
                let metadata = marker == 0xE1 || (0xE3...0xED).contains(marker) || marker == 0xEF || marker == 0xFE
                if !metadata { kept += data[offset..<end] }
                offset = end
            }
        }
        return nil
    }

    private static func strippingPNGMetadata(_ data: [UInt8]) -> [UInt8]? {
        let dropped: Set<String> = ["tEXt", "zTXt", "iTXt", "eXIf", "tIME"]
        var kept = Array(data.prefix(8))
        var offset = 8
        while offset + 12 <= data.count {
            let end = offset + 12 + bigEndian(data, offset, 4)
            guard end <= data.count else { return nil }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if !dropped.contains(type) { kept += data[offset..<end] }
            if type == "IEND" { return kept }
            offset = end
        }
        return nil
    }
}
