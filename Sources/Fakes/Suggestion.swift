/// "Did you mean …?" for a misspelt name: the closest candidate by edit distance, when it is close enough.
/// Public because the host uses it too, for scenario and action names.
public enum Suggestion {
    /// The candidate closest to `word` (case-insensitively), or nil when none is within a third of its length.
    public static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    /// ` Did you mean 'x'?` or an empty string.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { " Did you mean '\($0)'?" } ?? ""
    }

    /// Levenshtein distance.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}
