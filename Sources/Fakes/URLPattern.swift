/// A compiled regular expression for URLs, with its source kept for messages.
///
/// `@unchecked Sendable` because the standard library does not mark `Regex<AnyRegexOutput>` Sendable (its output
/// type parameter need not be), although a compiled Regex is immutable and safe to match from any thread.
public struct URLPattern: @unchecked Sendable {
    /// The expression as written.
    public let source: String
    private let regex: Regex<AnyRegexOutput>

    /// Compiles `source`.
    /// - Throws: the regex parser's error when `source` is not a valid expression.
    public init(_ source: String) throws {
        self.source = source
        self.regex = try Regex(source)
    }

    /// Whether the whole of `url` matches.
    public func matches(_ url: String) -> Bool {
        (try? regex.wholeMatch(in: url)) != nil
    }
}
