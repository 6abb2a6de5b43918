import Foundation
@testable import ScenarioFormat
import Testing

/// Property-based fuzzing of the scenario parser: thousands of mutants of the shipped scenario files, from a fixed
/// seed, each must parse without crashing or hanging, and every rejection must be a located problem (a line in the
/// file, or the whole file when it is empty). A time limit turns a hang into a failure.
@Suite struct ParserFuzzTests {
    static let mutantsPerFile = 400

    /// SplitMix64: a tiny, well-known generator, so the same seed gives the same mutants on every machine.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Characters that mean something to YAML, plus some that mean nothing and some that are not ASCII.
    static let alphabet = Array(":-[]{}'\"#&*!|>%@`,?\n\n\n  \t0123456789.eEtrufalsnyNUL~\\é☃\u{0}\u{7F}").map(String.init)

    static func mutate(_ text: String, using generator: inout Generator) -> String {
        var lines = text.components(separatedBy: "\n")
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !lines.isEmpty else { break }
            let line = Int.random(in: 0..<lines.count, using: &generator)
            switch Int.random(in: 0..<7, using: &generator) {
            case 0: // insert characters
                var characters = Array(lines[line])
                let at = Int.random(in: 0...characters.count, using: &generator)
                characters.insert(contentsOf: (0..<Int.random(in: 1...6, using: &generator)).flatMap { _ in alphabet.randomElement(using: &generator)! }, at: at)
                lines[line] = String(characters)
            case 1: // delete a range of characters
                var characters = Array(lines[line])
                guard !characters.isEmpty else { break }
                let start = Int.random(in: 0..<characters.count, using: &generator)
                characters.removeSubrange(start..<min(characters.count, start + Int.random(in: 1...8, using: &generator)))
                lines[line] = String(characters)
            case 2: lines.remove(at: line)
            case 3: lines.insert(lines[line], at: line) // duplicate (duplicate keys, repeated routes)
            case 4: lines.swapAt(line, Int.random(in: 0..<lines.count, using: &generator))
            case 5: lines[line] = String(repeating: " ", count: Int.random(in: 0...8, using: &generator)) + lines[line].drop { $0 == " " }
            default: lines = Array(lines.prefix(line)) // truncate
            }
        }
        return lines.joined(separator: "\n")
    }

    static var shippedFiles: [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: shippedScenarios.path)) ?? []
        return names.sorted().map { shippedScenarios.appendingPathComponent("\($0)/scenario.yaml") }
    }

    @Test(.timeLimit(.minutes(2)), arguments: shippedFiles)
    func mutantsParseWithoutCrashingAndEveryRejectionIsLocated(_ file: URL) throws {
        let original = try String(contentsOf: file, encoding: .utf8)
        let directory = file.deletingLastPathComponent()
        var generator = Generator(state: UInt64(truncatingIfNeeded: original.utf8.reduce(5381) { ($0 &* 33) &+ Int($1) }))
        var rejected = 0
        for _ in 0..<Self.mutantsPerFile {
            let mutant = Self.mutate(original, using: &generator)
            var parser = ScenarioFileParser(name: directory.lastPathComponent, directory: directory, path: file.path,
                                            fixtures: FixtureReader(), services: [])
            let (_, problems) = parser.parse(mutant)
            if !problems.isEmpty { rejected += 1 }
            for problem in problems {
                let lineCount = mutant.split(separator: "\n", omittingEmptySubsequences: false).count
                let located = problem.line.map { (1...max(1, lineCount + 1)).contains($0) } ?? problem.message.hasPrefix("the file is")
                #expect(located, "unlocated problem for a mutant of \(file.lastPathComponent): \(problem)\n--- mutant:\n\(mutant)")
                #expect(!problem.message.isEmpty)
            }
        }
        // The mutations must actually exercise the error paths, or this test proves nothing.
        #expect(rejected > Self.mutantsPerFile / 4, "only \(rejected) of \(Self.mutantsPerFile) mutants were rejected")
    }
}
