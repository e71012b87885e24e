/// One server-sent event of the console's live parts: `event: <name>`, then the data a line at a time.
enum ConsoleServerSentEvent {
    static func text(_ name: String, _ data: String) -> String {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }.joined(separator: "\n")
        return "event: \(name)\n\(lines)\n\n"
    }
}
