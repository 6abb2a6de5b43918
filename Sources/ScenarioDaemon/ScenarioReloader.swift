import Foundation
import Logging
import ScenarioFormat
import ScenarioHost
import Systemd

/// Re-reads the scenario directories, for SIGHUP and for `POST /v1/scenarios/reload` alike: tells systemd
/// (RELOADING=1 … READY=1), swaps the catalog in one step, and logs every problem.
struct ScenarioReloader: Sendable {
    let host: SessionHost
    let directories: [URL]
    let notifier: ServiceNotifier
    let status: StatusLine
    let logger: Logger

    func reload() async -> ScenarioCatalog {
        notifier.reloading()
        logger.notice("reloading scenarios from \(directories.map(\.path).joined(separator: ", "))")
        let catalog = await host.reload(from: directories)
        Self.logProblems(of: catalog, logger: logger)
        logger.notice("reloaded: \(catalog.validCount) scenarios valid, \(catalog.servingLastGood.count) serving their last good version, \(catalog.invalid.count) invalid")
        notifier.ready(status: await status.text())
        return catalog
    }

    static func logProblems(of catalog: ScenarioCatalog, logger: Logger) {
        for (name, problems) in catalog.problems.sorted(by: { $0.key < $1.key }) {
            let kept = catalog.scenarios[name] != nil ? " (its last good version keeps serving)" : ""
            for problem in problems {
                logger.warning("scenario \(name)\(kept): \(problem)", metadata: ["scenario": "\(name)"])
            }
        }
    }
}
