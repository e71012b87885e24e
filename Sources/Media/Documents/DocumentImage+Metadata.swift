extension DocumentImage {
    /// `data` without what cameras and editors write about a picture, or append to it: in a JPEG the APP1 (EXIF and XMP:
    /// where it was taken, with what, when), APP2 but an ICC profile (a multi-picture index among them), APP3–APP13
    /// (IPTC among them), APP15 and comment segments, and everything after its end (a motion photo's video, an HDR gain
    /// map); in a PNG every chunk but those that draw it (header, palette, data, end, transparency and colour). The
    /// picture itself, and what draws it right (JFIF, the ICC profile, Adobe's colour transform), is kept. A published
    /// page serves its pictures to anyone with the address: nothing about the owner goes with them.
    /// - Returns: nil when the structure cannot be followed to the picture's data (then it is not a picture Kiln uses).
    static func strippingMetadata(_ data: [UInt8], format: Format) -> [UInt8]? {
        switch format {
        case .jpeg: strippingJPEGMetadata(data)
        case .png: strippingPNGMetadata(data)
        }
    }

    private static func strippingJPEGMetadata(_ data: [UInt8]) -> [UInt8]? {
        let endOfImage: [UInt8] = [0xFF, 0xD9]
        var kept: [UInt8] = [0xFF, 0xD8]
        var scanned = false
        var offset = 2
        while offset + 1 < data.count {
            guard data[offset] == 0xFF else { return nil }
            let marker = data[offset + 1]
            switch marker {
            case 0xFF:  // a fill byte before a marker
                offset += 1
            case 0xD9:
                return kept + endOfImage
            case 0x01, 0xD0...0xD7:  // markers without a length
                kept += data[offset..<offset + 2]
                offset += 2
            default:
                guard offset + 3 < data.count else { return nil }
                var end = offset + 2 + bigEndian(data, offset + 2, 2)
                guard end <= data.count else { return nil }
                if marker == 0xDA {
                    // A start of scan: its compressed data follows it, up to the next marker.
                    end = endOfScan(data, from: end)
                    scanned = true
                }
                if !isJPEGMetadata(marker, payload: data[min(offset + 4, end)..<end]) { kept += data[offset..<end] }
                offset = end
            }
        }
        // A picture whose end marker is missing, as decoders tolerate: it ends after its last scan.
        return scanned ? kept + endOfImage : nil
    }

    /// Where a scan's compressed data ends: at the first 0xFF that is neither a stuffed zero nor a restart marker.
    private static func endOfScan(_ data: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < data.count {
            if data[index] == 0xFF, data[index + 1] != 0, !(0xD0...0xD7).contains(data[index + 1]) { return index }
            index += 1
        }
        return data.count
    }

    private static func isJPEGMetadata(_ marker: UInt8, payload: ArraySlice<UInt8>) -> Bool {
        switch marker {
        case 0xE1, 0xE3...0xED, 0xEF, 0xFE: true
        case 0xE2: !payload.starts(with: Array("ICC_PROFILE\0".utf8))
        default: false
        }
    }

    private static func strippingPNGMetadata(_ data: [UInt8]) -> [UInt8]? {
        let drawing: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "cICP", "sBIT", "bKGD", "pHYs"]
        var kept = Array(data.prefix(8))
        var offset = 8
        while offset + 12 <= data.count {
            let end = offset + 12 + bigEndian(data, offset, 4)
            guard end <= data.count else { return nil }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            if drawing.contains(type) { kept += data[offset..<end] }
            if type == "IEND" { return kept }
            offset = end
        }
        return nil
    }
}
