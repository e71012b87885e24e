import KilnJSON
import Testing

@Suite struct JSONFieldStreamTests {
    static let document =
        #"{"continuations":[{"summary":"A \"door\"","text":"Once\nupon é \ud83d\ude00"},{"tags":["x"],"text":"Twice"}],"text":"root"}"#

    static func select(_ path: [JSONFieldStream.Component]) -> Int? {
        guard path.count == 3, path[0] == .key("continuations"), path[2] == .key("text"), case .index(let index) = path[1] else { return nil }
        return index
    }

    /// The text of each stream, reading `document` cut into pieces of `size` characters.
    static func read(inPiecesOf size: Int) -> [Int: String] {
        var stream = JSONFieldStream(select: select)
        var texts: [Int: String] = [:]
        var rest = Substring(document)
        while !rest.isEmpty {
            for (index, text) in stream.read(String(rest.prefix(size))) { texts[index, default: ""] += text }
            rest = rest.dropFirst(size)
        }
        return texts
    }

    @Test(arguments: [1, 2, 3, 7, 500])
    func selectedStringsArriveUnescapedWhereverThePiecesAreCut(size: Int) {
        #expect(Self.read(inPiecesOf: size) == [0: "Once\nupon é 😀", 1: "Twice"])
    }
}
