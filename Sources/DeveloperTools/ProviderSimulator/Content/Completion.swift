import Foundation

/// One generated answer, cut the way the real APIs cut it: at the first stop sequence, then at the token limit.
struct Completion: Equatable {
    /// Why generation ended.
    enum Stop: Equatable {
        case end
        case maxTokens
        case stopSequence(String)
    }

    /// The text the non-streaming response returns; the pieces joined.
    let text: String
    /// The text as it is streamed, one token per piece (see ``TokenCount``).
    let pieces: [String]
    let stop: Stop

    var outputTokens: Int { self.pieces.count }

    init(generated: String, maxTokens: Int?, stopSequences: [String] = []) {
        var text = generated
        var stop = Stop.end
        let matches = stopSequences.filter { !$0.isEmpty }.compactMap { sequence in text.range(of: sequence).map { (sequence, $0) } }
        if let (sequence, range) = matches.min(by: { $0.1.lowerBound < $1.1.lowerBound }) {
            text = String(text[..<range.lowerBound])
            stop = .stopSequence(sequence)
        }
        var pieces = TokenCount.pieces(of: text)
        if let maxTokens, pieces.count > max(maxTokens, 0) {
            pieces = Array(pieces.prefix(max(maxTokens, 0)))
            text = pieces.joined()
            stop = .maxTokens
        }
        self.text = text
        self.pieces = pieces
        self.stop = stop
    }
}
