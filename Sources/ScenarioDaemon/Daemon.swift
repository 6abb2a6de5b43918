import ArgumentParser
public import Fakes
import Foundation
import Logging
import ScenarioFormat
import ScenarioHost
public import Services
import Systemd
import UnixSignals

/// The one-call entry: a team's whole daemon is its `main` calling ``main(name:version:models:services:)``.
///
/// ```swift
/// import ScenarioDaemon
/// import TodoList
///
/// await Daemon.main(name: "todod", version: "1.0.0", models: [TodoList.self])
/// ```
///
/// It owns the command line (the flags of ``DaemonOptions``, `--help`, `--version`), the logging system (the
/// journal or stderr), SIGTERM and SIGINT (drain, then exit 0), and socket activation. To own `main` yourself
/// and run other services beside the daemon, use ``DaemonService``.
public enum Daemon {
    /// Parses the command line, runs the daemon until SIGTERM or SIGINT, and exits: 0 after a clean stop; 64 for
    /// flags it cannot use or a default scenario it cannot open; 1 for `--check` problems or another failure to
    /// start. The reason is printed.
    /// - Parameters:
    ///   - name: The executable's name, in `--help`, the journal's `SYSLOG_IDENTIFIER` and the default paths.
    ///   - version: What `--version` and `GET /v1/version` say.
    ///   - models: The Models its scenarios may name.
    ///   - services: The services the team defines for its Models, each configured by the scenario section of its
    ///     name (see `ServiceDefinition` in the Fakes product).
    public static func main(name: String, version: String, models: [any Model.Type],
                            services: [ServiceDefinition] = []) async -> Never {
        // Socket activation's variables are read and unset before anything else starts a thread.
        let inheritedSockets = DaemonService.takeInheritedSockets()
        let identity = DaemonCommand.Identity(name: name, version: version, models: ModelRegistry(models, services: services))
        await DaemonCommand.$identity.withValue(identity) {
            do {
                let command = try DaemonCommand.parse()
                let options = command.options
                if command.check { DaemonCommand.exit(withError: command.runCheck(models: identity.models, name: name)) }
                if command.printSchema {
                    print(ScenarioSchema.json(models: identity.models.names, services: identity.models.services))
                    DaemonCommand.exit()
                }
                LoggingSystem.bootstrap { _ in options.logTarget.makeHandler(identifier: name, level: options.logLevel) }
                let daemon = DaemonService(name: name, version: version, options: options, models: identity.models,
                                           inheritedSockets: inheritedSockets, shutdownSignals: [.sigterm, .sigint],
                                           logger: Logger(label: name))
                try await daemon.run()
            } catch {
                DaemonCommand.exit(withError: error)
            }
        }
        DaemonCommand.exit()
    }
}

/// The command line of ``Daemon``: ``DaemonOptions`` under the team's own name and version. ArgumentParser reads
/// a command's configuration from a static property, so the name travels in a task-local value.
struct DaemonCommand: ParsableCommand {
    struct Identity: Sendable {
        let name: String
        let version: String
        let models: ModelRegistry
    }

    @TaskLocal static var identity = Identity(name: "scenariod", version: "unknown", models: ModelRegistry())

    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: identity.name,
            abstract: "Runs application Models (\(identity.models.names.joined(separator: ", "))) in named scenarios and serves a control API on a Unix socket.",
            discussion: """
            Scenario directories default to /usr/share/\(identity.name)/scenarios and /etc/\(identity.name)/scenarios \
            (later wins), or ./scenarios when neither exists; scenarios saved from recordings go to <state>/scenarios, \
            read last. The state directory (durable stores, recordings) defaults to $STATE_DIRECTORY under systemd, \
            else $XDG_STATE_HOME/\(identity.name), else ~/.local/state/\(identity.name). The socket defaults to \
            $RUNTIME_DIRECTORY/control.sock under systemd, else $XDG_RUNTIME_DIR/\(identity.name)/control.sock, else \
            /tmp/\(identity.name)-<uid>/control.sock. SIGHUP re-reads the scenarios; SIGTERM drains requests and exits 0.
            """,
            version: identity.version)
    }

    @OptionGroup var options: DaemonOptions

    @Flag(help: "Check the scenarios offline and exit: 0 when all are valid, 1 otherwise (as nginx -t). With --check, each --scenarios may also be one scenario directory.")
    var check = false

    @Flag(help: "With --check, print JSON instead of text.")
    var json = false

    @Flag(name: .customLong("print-schema"), help: "Print the JSON Schema of this daemon's scenario files (its Models named) and exit.")
    var printSchema = false

    /// The offline check: the `--scenarios` given, each a directory of scenarios or one scenario, read together as
    /// a start reads them; without `--scenarios`, the daemon's default directories and its recordings.
    /// - Returns: what to exit with.
    func runCheck(models: ModelRegistry, name: String) -> ExitCode {
        var paths = options.resolvedScenarioDirectories(name: name)
        let recordings = SessionHost.recordings(in: options.resolvedStateDirectory(name: name))
        if options.scenarioDirectories.isEmpty, FileManager.default.fileExists(atPath: recordings.path) { paths.append(recordings) }
        // The default directories are looked in, not read: a suite checked alone hears where its parents are.
        let result = ScenarioCatalog.check(paths, models: models.names, services: models.services,
                                           elsewhere: DaemonOptions.defaultScenarioDirectories(name: name), descriptions: models.descriptions)
        if json {
            let encoder = JSONEncoder.services
            encoder.outputFormatting.insert(.prettyPrinted)
            print(String(decoding: (try? encoder.encode(result)) ?? Data("null".utf8), as: UTF8.self))
        } else {
            for problem in result.problems { print(problem) }
            let scenarios = result.checked.count, problems = result.problems.count
            print("\(scenarios) scenario\(scenarios == 1 ? "" : "s") checked, \(problems) problem\(problems == 1 ? "" : "s")")
        }
        return result.problems.isEmpty && !result.checked.isEmpty ? .success : .failure
    }
}
