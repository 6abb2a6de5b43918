import ArgumentParser
import Foundation
import Services

/// A JSON argument as verbs take it: the JSON itself, `@FILE`, or `-` for standard input.
enum JSONArgument {
    /// - Parameter example: A short example of the JSON wanted, for the message when it does not parse.
    static func read(_ argument: String, example: String) throws -> JSONValue {
        let text: Data
        if argument == "-" {
            text = FileHandle.standardInput.readDataToEndOfFile()
        } else if argument.hasPrefix("@") {
            guard let data = FileManager.default.contents(atPath: String(argument.dropFirst())) else {
                throw ValidationError("cannot read \(argument.dropFirst()); give a readable file of JSON.")
            }
            text = data
        } else {
            text = Data(argument.utf8)
        }
        guard let json = try? JSONValue(json: text) else {
            throw ValidationError("\(argument.hasPrefix("@") ? String(argument.dropFirst()) : "the argument") is not valid JSON; write an object such as '\(example)'.")
        }
        return json
    }
}
