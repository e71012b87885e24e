/// Readable story prose from sentence templates, deterministic in its seed.
///
/// The prose is English fantasy narration, because Kiln's apps are story and game apps and a human reading a
/// test log should see text that looks like an answer, not lorem ipsum.
struct StoryWriter {
    private var generator: SeededGenerator

    init(seed: String) {
        self.generator = SeededGenerator(seed: seed)
    }

    /// A passage of whole sentences, about 60 to 120 words.
    mutating func passage() -> String {
        let target = Int.random(in: 60...110, using: &self.generator)
        var sentences: [String] = []
        var words = 0
        while words < target {
            let next = self.sentence()
            let count = next.split(separator: " ").count
            // Stop short rather than run past 120 words, unless the passage is still too short to read as one.
            if words >= 60, words + count > 120 { break }
            sentences.append(next)
            words += count
        }
        return sentences.joined(separator: " ")
    }

    /// Exactly `count` words of prose (at least one), without a closing period if cut mid-sentence.
    mutating func words(_ count: Int) -> String {
        var words: [Substring] = []
        while words.count < max(count, 1) {
            words.append(contentsOf: self.sentence().split(separator: " "))
        }
        return words.prefix(max(count, 1)).joined(separator: " ")
    }

    /// One sentence from a template with its slots filled.
    mutating func sentence() -> String {
        let template = self.generator.pick(Self.templates)
        var output = ""
        var slot = ""
        var inSlot = false
        for character in template {
            if character == "{" {
                inSlot = true
                slot = ""
            } else if character == "}" {
                inSlot = false
                output += self.generator.pick(Self.vocabulary[slot] ?? [slot])
            } else if inSlot {
                slot.append(character)
            } else {
                output.append(character)
            }
        }
        return output.prefix(1).uppercased() + output.dropFirst()
    }

    private static let templates = [
        "{hero} stepped into {place} as {time}, {object} held close against the cold.",
        "Somewhere beyond {place}, {creature} {verb} and the silence broke like thin ice.",
        "The air smelled of {smell}, and {hero} knew that {object} had been here before.",
        "{hero} whispered an old word, and {object} began to glow with a {colour} light.",
        "Nobody in {place} remembered {creature}, yet its tracks were fresh in the {ground}.",
        "As {time}, the party gathered around {object} and argued about the road ahead.",
        "{hero} laughed — a short, tired sound — and pointed toward {place}.",
        "A {colour} banner hung above the gate, torn by {weather} and older wars.",
        "Far below, {creature} {verb}, and every torch in {place} trembled at once.",
        "{hero} counted the coins twice, then traded them for {object} and a warning.",
        "The map showed {place}, but the ink had faded where the {ground} should be.",
        "By the time {weather} passed, {hero} had found {object} beneath the {ground}.",
        "Every story about {place} ended the same way: with {creature} and a {colour} sky.",
        "{hero} drew a careful breath and listened as {creature} {verb} in the dark.",
    ]

    private static let vocabulary: [String: [String]] = [
        "hero": ["the ranger", "Mira", "the old cartographer", "Tobin the smith", "the young cleric", "Captain Ilse", "the wandering bard"],
        "place": [
            "the drowned chapel", "the salt marsh", "the ruined watchtower", "the market of lanterns", "the northern pass", "the library vaults",
            "the sunken road",
        ],
        "time": ["dusk settled over the hills", "the bells rang midnight", "the first snow fell", "dawn crept across the valley", "the moon rose"],
        "object": ["the brass compass", "a sealed letter", "the silver key", "a cracked lantern", "the wolf-bone charm", "an unfinished map"],
        "creature": ["a great grey owl", "the marsh wyrm", "a pack of hollow hounds", "the lantern ghost", "an ancient tortoise"],
        "verb": ["stirred", "called out", "shifted its weight", "went still", "began to sing"],
        "smell": ["rain on old stone", "pine smoke", "wet iron", "crushed mint", "candle wax"],
        "colour": ["pale blue", "deep crimson", "amber", "silver", "moss green"],
        "ground": ["mud", "frost", "ashes", "sand", "fallen leaves"],
        "weather": ["the storm", "the long rain", "the howling wind", "the fog"],
    ]
}
