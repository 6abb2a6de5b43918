/// Names handed out once each, as route names in a scenario must be: a name already taken gets `-2`, `-3`… Used by
/// everything that writes routes from another source (recordings, imports).
public struct UniqueNames: Sendable {
    private var used: Set<String> = []

    /// No name taken yet.
    public init() {}

    /// `base` if it is free, else `base-2`, `base-3`… whichever is first free; that name is then taken.
    public mutating func claim(_ base: String) -> String {
        var name = base
        var counter = 2
        while used.contains(name) {
            name = "\(base)-\(counter)"
            counter += 1
        }
        used.insert(name)
        return name
    }
}
