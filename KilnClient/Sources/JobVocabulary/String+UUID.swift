extension String {
    /// Whether the text is a UUID, as upload ids are.
    package var isUUID: Bool {
        let parts = split(separator: "-", omittingEmptySubsequences: false)
        return parts.map(\.count) == [8, 4, 4, 4, 12] && parts.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
