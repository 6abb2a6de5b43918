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

extension [ScenarioProblem] {
    /// Sorted by file, then line and column, as a compiler lists its errors; problems without a place come first
    /// in their file, and equal places keep their order.
    public var inFileOrder: [ScenarioProblem] {
        enumerated().sorted { a, b in
            let left = (a.element.file, a.element.line ?? 0, a.element.column ?? 0, a.offset)
            let right = (b.element.file, b.element.line ?? 0, b.element.column ?? 0, b.offset)
            return left < right
        }.map(\.element)
    }
}
