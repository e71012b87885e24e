extension JSONValue {
    /// Compact JSON text, keys in their stored order.
    var serialized: String {
        var output = ""
        self.write(into: &output)
        return output
    }

    var bytes: [UInt8] { Array(self.serialized.utf8) }

    private func write(into output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .double(let value):
            if value.isFinite, value.rounded() == value, abs(value) < 1e15 {
                output += String(Int(value))
            } else if value.isFinite {
                output += String(value)
            } else {
                // JSON has no infinities; null is what JavaScript's JSON.stringify writes too.
                output += "null"
            }
        case .string(let value): Self.writeString(value, into: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                element.write(into: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.writeString(key, into: &output)
                output += ":"
                value.write(into: &output)
            }
            output += "}"
        }
    }

    private static func writeString(_ value: String, into output: inout String) {
        output += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
