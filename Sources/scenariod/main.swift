import ArgumentParser
import Systemd

// Socket activation's variables are read and unset before anything can start a thread (unsetenv is not
// thread-safe), so this comes before argument parsing.
let inheritedSockets = ListenSockets.take()

do {
    let command = try Scenariod.parse()
    try await command.run(inheritedSockets: inheritedSockets)
} catch {
    Scenariod.exit(withError: error)
}
