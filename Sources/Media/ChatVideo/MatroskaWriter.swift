/// Writes uncompressed I420 frames as a Matroska stream that `ffmpeg -f matroska -i -` reads from a pipe.
///
/// Rawvideo on a pipe has no timestamps, so every tick's frame would have to be written, repeats included. In Matroska
/// each distinct picture is written once with its tick as timestamp, and ffmpeg fills the gaps (`-fps_mode cfr -r fps`)
/// or keeps them (`-fps_mode vfr -r fps`). Nothing is known in advance and nothing is seeked back to: the Segment and
/// the Clusters have the "unknown" size, which a streaming reader takes to end where the next element of the same
/// level starts.
///
/// Write ``header()`` once, then for each picture ``blockHeader(tick:payloadSize:)`` followed directly by the frame's
/// ``framePayloadSize`` bytes of I420 (the Y plane, then U, then V, each row packed): the payload is not copied
/// here, so the caller can write it straight from its frame buffer.
public struct MatroskaWriter: Sendable {
    public let width: Int
    public let height: Int
    public let fps: Int

    /// The tick of the open Cluster, which a SimpleBlock's 16-bit relative timestamp counts from; nil before the first
    /// frame.
    private var clusterTick: Int?

    /// A stream of `width`×`height` pictures on ticks of `1 / fps` seconds. Both sizes must be even, as 4:2:0
    /// subsampling and H.264 need.
    public init(width: Int, height: Int, fps: Int) {
        precondition(width > 0 && height > 0 && fps > 0, "a video has a positive size and frame rate")
        self.width = width
        self.height = height
        self.fps = fps
    }

    /// Bytes of one I420 frame: a full-size Y plane and two quarter-size chroma planes.
    public var framePayloadSize: Int {
        self.width * self.height * 3 / 2
    }

    /// One tick is one timestamp unit, so block timestamps are exact integers. Matroska counts in nanoseconds, so a
    /// tick of 1/60 s becomes 16 666 667 ns: the video drifts 20 ns a second, about 1 µs an hour.
    private var timestampScale: Int {
        Int((1_000_000_000 / Double(self.fps)).rounded())
    }

    /// The EBML header, the start of the Segment, and its Info and Tracks: everything before the first frame.
    public func header() -> [UInt8] {
        let ebml = EBML.element(
            0x1A45_DFA3,
            EBML.unsigned(0x4286, 1)  // EBMLVersion
                + EBML.unsigned(0x42F7, 1)  // EBMLReadVersion
                + EBML.unsigned(0x42F2, 4)  // EBMLMaxIDLength
                + EBML.unsigned(0x42F3, 8)  // EBMLMaxSizeLength
                + EBML.string(0x4282, "matroska")  // DocType
                + EBML.unsigned(0x4287, 2)  // DocTypeVersion: SimpleBlock is a version 2 element
                + EBML.unsigned(0x4285, 2)  // DocTypeReadVersion
        )
        let segmentStart = EBML.id(0x1853_8067) + EBML.unknownSize
        let info = EBML.element(
            0x1549_A966,
            EBML.unsigned(0x2A_D7B1, self.timestampScale)  // TimestampScale
                + EBML.string(0x4D80, Self.application)  // MuxingApp
                + EBML.string(0x5741, Self.application)  // WritingApp
        )
        let video = EBML.element(
            0xE0,
            EBML.unsigned(0xB0, self.width)  // PixelWidth
                + EBML.unsigned(0xBA, self.height)  // PixelHeight
                + EBML.element(0x2E_B524, Array("I420".utf8))  // ColourSpace: the FourCC ffmpeg maps to yuv420p
        )
        let track = EBML.element(
            0xAE,  // TrackEntry
            EBML.unsigned(0xD7, Self.trackNumber)  // TrackNumber
                + EBML.unsigned(0x73C5, 1)  // TrackUID
                + EBML.unsigned(0x83, 1)  // TrackType: video
                + EBML.unsigned(0x9C, 0)  // FlagLacing: one frame per block
                + EBML.string(0x86, "V_UNCOMPRESSED")  // CodecID
                + video
        )
        let tracks = EBML.element(0x1654_AE6B, track)
        return ebml + segmentStart + info + tracks
    }

    /// The bytes to write before the picture shown from `tick` on: a new Cluster when the tick is too far from the
    /// open one's for a 16-bit relative timestamp (about 9 minutes at 60 fps), then a SimpleBlock's header.
    ///
    /// Ticks must not be negative and should not decrease. `payloadSize` is the number of bytes written next, normally
    /// ``framePayloadSize``.
    public mutating func blockHeader(tick: Int, payloadSize: Int) -> [UInt8] {
        precondition(tick >= 0, "ticks count from the start of the video")
        var bytes: [UInt8] = []
        let relativeTick: Int16
        if let clusterTick = self.clusterTick, let distance = Int16(exactly: tick - clusterTick) {
            relativeTick = distance
        } else {
            bytes += EBML.id(0x1F43_B675) + EBML.unknownSize + EBML.unsigned(0xE7, tick)  // Cluster and its Timestamp
            self.clusterTick = tick
            relativeTick = 0
        }
        let blockPrefix = EBML.size(Self.trackNumber) + EBML.bigEndian(UInt16(bitPattern: relativeTick)) + [Self.keyframe]
        bytes += EBML.id(0xA3) + EBML.size(blockPrefix.count + payloadSize) + blockPrefix  // SimpleBlock
        return bytes
    }

    private static let application = "Kiln ChatVideo"
    private static let trackNumber = 1
    /// SimpleBlock flags: every uncompressed frame stands alone.
    private static let keyframe: UInt8 = 0x80
}

/// The few pieces of EBML, Matroska's binary XML, that the writer needs. An element is its ID, its size as a
/// variable-length integer, then its body.
private enum EBML {
    /// The size that means "until the next element of this level or above": a stream never has to go back to patch
    /// a length.
    static let unknownSize: [UInt8] = [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

    /// An element ID, whose leading bits already mark its length, so it is written as its significant bytes.
    static func id(_ value: UInt32) -> [UInt8] {
        let length = max(1, (32 - value.leadingZeroBitCount + 7) / 8)
        return (0..<length).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A variable-length integer in the fewest bytes: a length marker bit, then the value. All value bits set is
    /// reserved for ``unknownSize``, hence the `- 1`.
    static func size(_ value: Int) -> [UInt8] {
        let length = (1...8).first { value < (1 << (7 * $0)) - 1 } ?? 8
        let marked = UInt64(value) | (1 << (7 * UInt64(length)))
        return (0..<length).reversed().map { UInt8(truncatingIfNeeded: marked >> ($0 * 8)) }
    }

    static func bigEndian(_ value: some FixedWidthInteger) -> [UInt8] {
        withUnsafeBytes(of: value.bigEndian) { Array($0) }
    }

    /// An element with a known size: a master element's children, or a binary value.
    static func element(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        Self.id(id) + size(body.count) + body
    }

    static func string(_ id: UInt32, _ value: String) -> [UInt8] {
        element(id, Array(value.utf8))
    }

    /// An unsigned integer in its significant big-endian bytes, at least one.
    static func unsigned(_ id: UInt32, _ value: Int) -> [UInt8] {
        let significant = bigEndian(UInt64(value)).drop { $0 == 0 }
        return element(id, significant.isEmpty ? [0] : Array(significant))
    }
}
