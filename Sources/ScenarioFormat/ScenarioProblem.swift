/// One thing wrong with a scenario: where (file, line, column) and what to do about it.
public struct ScenarioProblem: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file, as the path it was read from.
    public var file: String
    /// 1-based line, when the problem has a place in the file.
    public var line: Int?
    /// 1-based column, when the problem has a place in the file.
    public var column: Int?
    /// What is wrong and how to fix it.
    public var message: String

    /// Creates a problem.
    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file:line:column: message`, the form compilers use, so editors can jump to it.
    public var description: String {
        switch (line, column) {
        case let (line?, column?): "\(file):\(line):\(column): \(message)"
        case let (line?, nil): "\(file):\(line): \(message)"
        default: "\(file): \(message)"
        }
    }
}
