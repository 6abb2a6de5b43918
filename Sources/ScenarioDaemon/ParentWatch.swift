import Foundation
import ServiceLifecycle

/// With `--exit-with-parent`: ends the daemon when the process that started it is gone (it has been re-parented),
/// so a test run's private daemon never outlives the run, however the run ends.
struct ParentWatch: Service, CustomStringConvertible {
    var description: String { "ParentWatch" }

    let parent = getppid()

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled && getppid() == parent {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(250)) }
        }
    }
}
