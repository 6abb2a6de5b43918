/// What this binary's sessions can own of their Models' work, found by trying each part once in a session of its own:
/// a `Task {}` on the session's executor, each kind of escape reported, a main-actor hop counted as the session's.
///
/// Each part rests on a hook that takes a runtime or libdispatch function's place (docs/who-owns-scheduling.md); a
/// binary linked without them (a static Swift runtime without ``linkerFlags``), or a toolchain that
/// moved a path, loses some parts. The daemon checks at start, says what it found in `GET /v1/health`, and under
/// `--model-escapes fail` refuses to start when a part is missing.
public struct TaskOwnershipCheck: Sendable, Hashable {
    /// The linker flags a binary linked with a static Swift runtime (`swift build --static-swift-stdlib`) needs for
    /// the hooks to take the runtime's place: pass each as `-Xlinker FLAG` (scripts/build-deb and the package-daemon
    /// plugin do). A dynamically linked binary (a debug build, `swift test`) needs none.
    public static let linkerFlags = ["swift_task_create", "dispatch_after_f", "dispatch_after", "dispatch_async", "dispatch_async_f"]
        .map { "--wrap=\($0)" }

    /// One part of the ownership and whether it works here.
    public struct Part: Sendable, Hashable {
        /// What it is, in words: `a Task {} runs on its session's executor`.
        public var name: String
        /// Whether it works in this binary.
        public var works: Bool

        /// A part called `name` that works or not.
        public init(name: String, works: Bool) {
            self.name = name
            self.works = works
        }
    }

    /// Every part, in the order they were tried.
    public var parts: [Part]

    /// Whether every part works: sessions own their Models' work as the design says.
    public var isComplete: Bool { parts.allSatisfy(\.works) }

    /// The parts that do not work, by name.
    public var missing: [String] { parts.filter { !$0.works }.map(\.name) }

    /// One line for a log or a status: `complete`, or what is missing and how to link so that it works.
    public var summary: String {
        guard !isComplete else { return "complete: \(parts.map(\.name).joined(separator: "; "))" }
        return "incomplete: \(missing.joined(separator: "; ")) do not work in this binary. Link it as docs/who-owns-scheduling.md "
            + "(Linking) says: a static Swift runtime needs \(Self.linkerFlags.map { "-Xlinker \($0)" }.joined(separator: " "))"
    }

    /// Every part and whether it works, in the order they were tried.
    public init(parts: [Part]) { self.parts = parts }
}
