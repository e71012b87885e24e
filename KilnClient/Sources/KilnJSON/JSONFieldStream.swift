/// Follows a JSON document as it streams in, in pieces cut anywhere, and hands out the text of chosen string fields
/// as it arrives, unescaped: how a structured answer (`{"continuations":[{"text":"Once…"}]}`) reaches an app word by
/// word as prose instead of as JSON fragments.
///
/// It tracks only structure (objects, arrays, keys, indexes, strings); it does not validate, since the whole answer
/// is validated once it is complete.
public struct JSONFieldStream: Sendable {
    /// One step of a path from the document's root.
    public enum Component: Sendable, Equatable {
        case key(String)
        case index(Int)
    }

    private enum Frame: Sendable {
        case object(key: String?, expectingKey: Bool)
        case array(index: Int)
    }

    private enum Lexeme: Sendable {
        case outside
        case key(String)
        case value(selected: Int?)
    }

    /// Which stream a string field's text goes to (an app's "choice"), or nil to keep it out.
    private let select: @Sendable ([Component]) -> Int?
    private var frames: [Frame] = []
    private var lexeme = Lexeme.outside
    private var escaping = false
    /// The hex digits of a `\u` escape being read.
    private var unicodeDigits: String?
    /// The first half of a surrogate pair, waiting for its second.
    private var highSurrogate: UInt32?

    public init(select: @escaping @Sendable ([Component]) -> Int?) {
        self.select = select
    }

    /// Reads the next piece of the document; returns the new text of the selected fields, by stream, in order.
    public mutating func read(_ piece: String) -> [(stream: Int, text: String)] {
        var output: [(stream: Int, text: String)] = []
        func emit(_ scalar: Unicode.Scalar, to stream: Int) {
            if let last = output.indices.last, output[last].stream == stream {
                output[last].text.unicodeScalars.append(scalar)
            } else {
                output.append((stream, String(Character(scalar))))
            }
        }
        for scalar in piece.unicodeScalars {
            switch lexeme {
            case .outside:
                structural(scalar)
            case .key(var key):
                if let decoded = decodeStringScalar(scalar) {
                    if case .end = decoded {
                        lexeme = .outside
                        if case .object = frames.last { frames[frames.count - 1] = .object(key: key, expectingKey: false) }
                    } else if case .scalar(let character) = decoded {
                        key.unicodeScalars.append(character)
                        lexeme = .key(key)
                    }
                }
            case .value(let selected):
                if let decoded = decodeStringScalar(scalar) {
                    if case .end = decoded {
                        lexeme = .outside
                    } else if case .scalar(let character) = decoded, let selected {
                        emit(character, to: selected)
                    }
                }
            }
        }
        return output
    }

    private enum Decoded {
        case scalar(Unicode.Scalar)
        case end
    }

    /// One scalar inside a string: nil while an escape is incomplete.
    private mutating func decodeStringScalar(_ scalar: Unicode.Scalar) -> Decoded? {
        if var digits = unicodeDigits {
            digits.unicodeScalars.append(scalar)
            guard digits.count == 4 else {
                unicodeDigits = digits
                return nil
            }
            unicodeDigits = nil
            guard let value = UInt32(digits, radix: 16) else { return nil }
            if (0xD800...0xDBFF).contains(value) {
                highSurrogate = value
                return nil
            }
            if (0xDC00...0xDFFF).contains(value), let high = highSurrogate {
                highSurrogate = nil
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (value - 0xDC00)).map(Decoded.scalar)
            }
            return Unicode.Scalar(value).map(Decoded.scalar)
        }
        if escaping {
            escaping = false
            switch scalar {
            case "n": return .scalar("\n")
            case "t": return .scalar("\t")
            case "r": return .scalar("\r")
            case "b": return .scalar("\u{08}")
            case "f": return .scalar("\u{0C}")
            case "u":
                unicodeDigits = ""
                return nil
            default: return .scalar(scalar)
            }
        }
        switch scalar {
        case "\\":
            escaping = true
            return nil
        case "\"":
            return .end
        default:
            return .scalar(scalar)
        }
    }

    private mutating func structural(_ scalar: Unicode.Scalar) {
        switch scalar {
        case "{":
            frames.append(.object(key: nil, expectingKey: true))
        case "[":
            frames.append(.array(index: 0))
        case "}", "]":
            _ = frames.popLast()
        case ",":
            switch frames.last {
            case .object?: frames[frames.count - 1] = .object(key: nil, expectingKey: true)
            case .array(let index)?: frames[frames.count - 1] = .array(index: index + 1)
            case nil: break
            }
        case "\"":
            if case .object(_, true)? = frames.last {
                lexeme = .key("")
            } else {
                lexeme = .value(selected: select(path))
            }
        default:
            break
        }
    }

    /// Where the value being read sits.
    private var path: [Component] {
        frames.compactMap { frame in
            switch frame {
            case .object(let key, _): key.map(Component.key)
            case .array(let index): .index(index)
            }
        }
    }
}
