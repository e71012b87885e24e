import CPangoCairo
import Glibc

/// An RGB picture for comparisons: a rendered frame, a golden PNG, a frame decoded from a video, a page or a screenshot.
public struct Picture {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, R G B.
    public let rgb: [UInt8]

    public init(bgra: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) {
        self.width = width
        self.height = height
        // Pointer loops: the tests are built without optimisation, where array subscripts cost ten times more.
        self.rgb = [UInt8](unsafeUninitializedCapacity: width * height * 3) { rgb, count in
            var out = rgb.baseAddress!
            for y in 0..<height {
                var pixel = bgra + y * stride
                for _ in 0..<width {
                    out[0] = pixel[2]
                    out[1] = pixel[1]
                    out[2] = pixel[0]
                    out += 3
                    pixel += 4
                }
            }
            count = width * height * 3
        }
    }

    public init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// A PNG file, through Cairo; nil when it cannot be read.
    public init?(png path: String) {
        let surface = cairo_image_surface_create_from_png(path)
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return nil }
        self.init(
            bgra: data, stride: Int(cairo_image_surface_get_stride(surface)), width: Int(cairo_image_surface_get_width(surface)),
            height: Int(cairo_image_surface_get_height(surface)))
    }

    /// The mean absolute difference per channel, 0–255.
    public func meanDifference(from other: Picture) -> Double {
        var total = 0
        differences(from: other) { total += $0 }
        return Double(total) / Double(rgb.count)
    }

    /// The largest difference of one channel of one pixel.
    public func maxDifference(from other: Picture) -> Int {
        var largest = 0
        differences(from: other) { largest = max(largest, $0) }
        return largest
    }

    /// Calls `body` with the absolute difference of each channel.
    private func differences(from other: Picture, _ body: (Int) -> Void) {
        precondition(rgb.count == other.rgb.count)
        rgb.withUnsafeBufferPointer { mine in
            other.rgb.withUnsafeBufferPointer { theirs in
                var index = 0
                let end = mine.count
                while index < end {
                    body(abs(Int(mine[index]) - Int(theirs[index])))
                    index += 1
                }
            }
        }
    }

    /// The first and last rows where the two pictures differ; nil when they are the same.
    public func differingRows(from other: Picture) -> ClosedRange<Int>? {
        precondition(width == other.width && height == other.height)
        let rowBytes = width * 3
        return rgb.withUnsafeBufferPointer { mine in
            other.rgb.withUnsafeBufferPointer { theirs in
                let rows = (0..<height).filter { row in
                    memcmp(mine.baseAddress! + row * rowBytes, theirs.baseAddress! + row * rowBytes, rowBytes) != 0
                }
                return rows.first.map { $0...rows.last! }
            }
        }
    }

    /// The smallest rectangle holding every pixel of `rows` (and `columns`) for which `matches` holds (red, green, blue);
    /// nil when none does.
    public func bounds(
        rows: Range<Int>? = nil, columns: Range<Int>? = nil, where matches: (UInt8, UInt8, UInt8) -> Bool
    ) -> (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var found: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        rgb.withUnsafeBufferPointer { pixels in
            for y in rows ?? 0..<height {
                let columns = columns ?? 0..<width
                var pixel = pixels.baseAddress! + (y * width + columns.lowerBound) * 3
                for x in columns {
                    if matches(pixel[0], pixel[1], pixel[2]) {
                        let box = found ?? (x, y, x, y)
                        found = (min(box.minX, x), min(box.minY, y), max(box.maxX, x), max(box.maxY, y))
                    }
                    pixel += 3
                }
            }
        }
        return found
    }

    /// The red, green and blue bytes of the rectangle `rows` × `columns`, row after row.
    public func pixels(rows: Range<Int>, columns: Range<Int>) -> [UInt8] {
        rows.flatMap { row in rgb[((row * width + columns.lowerBound) * 3)..<((row * width + columns.upperBound) * 3)] }
    }

    /// The mean colour of a rectangle.
    public func meanColor(x: Int, y: Int, width: Int, height: Int) -> (red: Double, green: Double, blue: Double) {
        var sums = (0, 0, 0)
        for row in y..<(y + height) {
            for column in x..<(x + width) {
                let index = (row * self.width + column) * 3
                sums.0 += Int(rgb[index])
                sums.1 += Int(rgb[index + 1])
                sums.2 += Int(rgb[index + 2])
            }
        }
        let count = Double(width * height)
        return (Double(sums.0) / count, Double(sums.1) / count, Double(sums.2) / count)
    }
}
