import KilnCore
import KilnJSON
import KilnQueue

extension ClaimedJob {
    /// The job's input as its kind's type. One that does not decode fails the job for good: the API admitted it, so
    /// no retry will mend it.
    func input<Input: Decodable>(as type: Input.Type) throws -> Input {
        guard let input = try? JSONValue.parse(self.input)?.decode(as: type) else {
            throw JobFailure.permanent(code: "invalid_input", message: "the input is not a \(kind) input")
        }
        return input
    }
}
