import KilnCore
import KilnJSON

/// The one `status` event of a finished job whose event stream has expired with its Redis copy: how it ended. Its
/// `result` is left out when the job has none.
struct FinishedJobEvent: Encodable {
    let state: String
    let attempt: Int
    let result: JSONValue?

    init(_ job: JobView) {
        state = job.state.rawValue
        attempt = job.attempt
        result = job.result.flatMap(JSONValue.parse)
    }
}
