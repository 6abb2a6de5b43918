import Foundation
import Services

/// An import refused because its source is not what it claims to be, with the place: the file, and a line and
/// column or a JSON pointer inside it. Nothing is written when an import fails.
public struct ImportError: Error, Sendable, CustomStringConvertible {
    /// The file, as the user named it.
    public var file: String
    /// The 1-based line of the problem, when known.
    public var line: Int?
    /// The 1-based column of the problem, when known.
    public var column: Int?
    /// A JSON pointer to the problem inside the file (`/log/entries/3/response`), when known.
    public var pointer: String?
    /// What is wrong and what to do, in a sentence without the place.
    public var problem: String

    /// A problem in `file`, at a line and column or a pointer when given.
    public init(file: String, line: Int? = nil, column: Int? = nil, pointer: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.column = column
        self.pointer = pointer
        self.problem = problem
    }

    /// `file:line:column: problem`, or `file: /pointer: problem`.
    public var description: String {
        var place = file
        if let line { place += ":\(line)" + (column.map { ":\($0)" } ?? "") }
        if let pointer, !pointer.isEmpty { place += ": \(pointer)" }
        return "\(place): \(problem)"
    }
}

extension ImportError {
    /// The JSON in `data` (a file named `file`), strictly parsed: a syntax error is refused with its line and column.
    static func parseJSON(_ data: Data, file: String, what: String) throws(ImportError) -> JSONValue {
        do {
            return try JSONValue(strictJSON: data)
        } catch {
            throw ImportError(file: file, line: error.line, column: error.column,
                              problem: "\(error.problem); this is not \(what) (a file cut short, or not JSON).")
        }
    }

    /// Decodes `T` from `data`, which parsed as JSON: a missing or mistyped member is refused at its JSON pointer.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String, what: String) throws(ImportError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            let (path, problem): ([any CodingKey], String) = switch error {
            case .keyNotFound(let key, let context): (context.codingPath + [key], "'\(key.stringValue)' is missing; \(what) has one here.")
            case .typeMismatch(let type, let context): (context.codingPath, "expected \(Self.typeName(type)) here (\(context.debugDescription)).")
            case .valueNotFound(let type, let context): (context.codingPath, "expected \(Self.typeName(type)) here, found null.")
            case .dataCorrupted(let context): (context.codingPath, context.debugDescription)
            @unknown default: ([], "\(error)")
            }
            throw ImportError(file: file, pointer: pointer(path), problem: problem)
        } catch {
            throw ImportError(file: file, problem: "\(error)")
        }
    }

    /// `/log/entries/3/request` for a coding path.
    static func pointer(_ path: [any CodingKey]) -> String {
        path.map { key in
            "/" + (key.intValue.map(String.init) ?? key.stringValue).replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }.joined()
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".contains("Array") ? "a list" : "an object"
        }
    }
}
