import ArgumentParser
import ControlServer
import Foundation
import Logging
import ScenarioHost
import Services
import Systemd

/// The options resolved against the environment and the daemon's name: systemd's directories first, then XDG's,
/// then per-user fallbacks, so `scenariod` and a team's `todod` keep apart.
extension DaemonOptions {
    func resolvedScenarioDirectories(name: String) -> [URL] {
        if !scenarioDirectories.isEmpty { return scenarioDirectories.map { URL(fileURLWithPath: $0) } }
        return Self.defaultScenarioDirectories(name: name)
    }

    /// Where the daemon reads scenarios when given no `--scenarios`: its installed directories, or `./scenarios`.
    static func defaultScenarioDirectories(name: String) -> [URL] {
        let system = ["/usr/share/\(name)/scenarios", "/etc/\(name)/scenarios"].filter { FileManager.default.fileExists(atPath: $0) }
        return (system.isEmpty ? ["scenarios"] : system).map { URL(fileURLWithPath: $0) }
    }

    func resolvedAccessPolicy() throws -> AccessPolicy {
        let gids = try allowedGroups.map { group -> UInt32 in
            if let gid = UInt32(group) { return gid }
            guard let entry = getgrnam(group) else {
                throw ValidationError("--allow-group \(group): there is no such group; give a group name from /etc/group or a numeric id.")
            }
            return entry.pointee.gr_gid
        }
        return AccessPolicy(uids: Set(allowedUIDs), gids: Set(gids))
    }

    func resolvedRequestTimeout() throws -> Duration {
        try Self.positiveDuration(requestTimeout, flag: "--request-timeout")
    }

    func resolvedBodyTimeout() throws -> Duration {
        try Self.positiveDuration(bodyTimeout, flag: "--body-timeout")
    }

    private static func positiveDuration(_ text: String, flag: String) throws -> Duration {
        guard let duration = DurationText.parse(text), duration > .zero else {
            throw ValidationError("\(flag) \(text) is not a duration; write one such as 500ms, 10s or 1m.")
        }
        return duration
    }

    func resolvedLimits() throws -> HostLimits {
        for (flag, value) in [("--max-sessions", maxSessions), ("--max-subscribers-per-session", maxSubscribersPerSession),
                              ("--max-subscribers", maxSubscribers), ("--max-explorations", maxExplorations),
                              ("--max-exploration-steps", maxExplorationSteps)] where value < 1 {
            throw ValidationError("\(flag) \(value) must be at least 1.")
        }
        let sizes = try [("--journal-bytes", journalBytes), ("--history-bytes", historyBytes), ("--event-buffer-bytes", eventBufferBytes),
                         ("--recording-bytes", recordingBytes), ("--max-held-bytes", maxHeldBytes)].map { flag, text in
            guard let bytes = ByteCountText.parse(text), bytes >= 1 else {
                throw ValidationError("\(flag) \(text) is not a size; write a whole number of bytes with an optional unit, such as 65536, 512KiB, 16MiB or 2GiB.")
            }
            return bytes
        }
        return HostLimits(sessions: maxSessions, subscribersPerSession: maxSubscribersPerSession, subscribers: maxSubscribers,
                          journalBytes: sizes[0], historyBytes: sizes[1], eventBufferBytes: sizes[2], recordingBytes: sizes[3],
                          heldBytes: sizes[4])
    }

    func resolvedStateDirectory(name: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let stateDirectory { return URL(fileURLWithPath: stateDirectory) }
        if let state = environment["STATE_DIRECTORY"]?.split(separator: ":").first { return URL(fileURLWithPath: String(state)) }
        if let state = environment["XDG_STATE_HOME"], !state.isEmpty { return URL(fileURLWithPath: state).appendingPathComponent(name) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/\(name)")
    }

    /// The recordings directory, created if need be, as the last scenarios directory; none when it cannot be made
    /// (the daemon still runs; saving a recording then fails with the reason).
    func recordingsDirectory(in state: URL, logger: Logger) -> [URL] {
        let directory = SessionHost.recordings(in: state)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return [directory]
        } catch {
            logger.warning("cannot create \(directory.path) for recorded scenarios: \(error.localizedDescription); recordings cannot be saved")
            return []
        }
    }

    func resolvedListener(name: String, inheritedSockets: [Int32]) throws -> ControlSocketServer.Listener {
        if let descriptor = inheritedSockets.first {
            return .inherited(descriptor: descriptor, path: socket ?? ListenSockets.path(of: descriptor))
        }
        let path: String
        let environment = ProcessInfo.processInfo.environment
        if let socket {
            path = socket
        } else if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first {
            path = "\(runtime)/control.sock"
        } else if let runtime = environment["XDG_RUNTIME_DIR"] {
            path = "\(runtime)/\(name)/control.sock"
        } else {
            path = "/tmp/\(name)-\(getuid())/control.sock"
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw ValidationError("cannot create the socket's directory \(directory): \(error.localizedDescription)")
            }
        }
        return .path(path)
    }
}
