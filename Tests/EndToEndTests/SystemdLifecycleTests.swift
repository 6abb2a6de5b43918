import ControlAPI
import Foundation
import ScenarioClient
import Services
import Testing

/// What systemd sees of the daemon, observed through a test-owned NOTIFY_SOCKET and signals.
@Suite(.serialized) struct SystemdLifecycleTests {
    @Test func readyComesWithAStatusLineAfterTheSocketAccepts() async throws {
        let daemon = try await RunningDaemon.start(["--scenario", "offline-demo"])
        let ready = try #require(await daemon.notify.waitFor("READY=1"))
        #expect(ready.contains("STATUS=Scenario offline-demo; 1 session; 21 scenarios; socket \(daemon.socket)"))
        // READY=1 was sent only once the socket accepted: a request right after it is answered.
        #expect(try await daemon.client.health().sessions == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: daemon.socket)[.posixPermissions] as? Int
        #expect(mode == 0o660)
        #expect(await daemon.stop() == 0)
    }

    @Test func sighupReloadsScenariosAtomicallyAndKeepsTheLastGoodVersion() async throws {
        let scenarios = try Binaries.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scenarios) }
        let file = scenarios.appendingPathComponent("demo/scenario.yaml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "description: Version one.\nmodel: FeedReader\n".write(to: file, atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon.start(scenarios: scenarios)
        #expect(try await daemon.client.scenario("demo").description == "Version one.")

        try "description: Version two.\nmodel: FeedReader\n".write(to: file, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(await daemon.notify.waitFor("RELOADING=1") != nil)
        let readyAgain = await daemon.notify.waitFor(after: "RELOADING=1", "READY=1")
        #expect(readyAgain != nil)
        #expect(try await daemon.client.scenario("demo").description == "Version two.")

        // A broken edit: the last good version keeps serving, and the problem is shown.
        try "description: Version three.\nmodle: FeedReader\n".write(to: file, atomically: true, encoding: .utf8)
        let reload = try await daemon.client.reloadScenarios()
        #expect(reload.servingLastGood == ["demo"] && reload.invalid.isEmpty)
        #expect(try await daemon.client.scenario("demo").description == "Version two.")
        let summary = try #require(try await daemon.client.scenarios().first { $0.name == "demo" })
        #expect(summary.valid)
        #expect(summary.problems == ["\(file.path):2:1: unknown key 'modle' in the scenario. Did you mean 'model'? Allowed keys: description, model, extends, clock, keyValue, random, schedule, network."])
        #expect(daemon.log.contains("scenario demo (its last good version keeps serving): \(file.path):2:1: unknown key 'modle'"))
        #expect(await daemon.stop() == 0)
    }

    @Test func sigtermLetsARequestInFlightFinishThenExitsZeroAndRemovesTheSocket() async throws {
        let daemon = try await RunningDaemon.start(["--log-level", "debug"])
        let body = #"{"scenario":"offline-demo","id":"late"}"#
        let connection = try RawConnection(socket: daemon.socket)
        // Half a request: the head and part of the body.
        try connection.send("POST /v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        try connection.send(String(body.prefix(10)))
        // In flight means the server has read the head: it logs the caller of every change then.
        #expect(await daemon.waitForLog("POST /v1/sessions by uid \(getuid())"))
        daemon.signal(SIGTERM)
        #expect(await daemon.notify.waitFor("STOPPING=1") != nil)
        // New connections are refused once the listener closes (soon after STOPPING=1)...
        var refused = false
        for _ in 0..<500 where !refused {
            refused = (try? RawConnection(socket: daemon.socket)) == nil
            if !refused { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(refused)
        // ...but the request in flight completes.
        try connection.send(String(body.dropFirst(10)))
        let response = await connection.read(until: "}")
        #expect(response.hasPrefix("HTTP/1.1 201"), "\(response)")
        #expect(response.contains(#""id":"late""#))
        #expect(await daemon.exitStatus() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socket))
    }

    @Test func sigtermEndsEventStreams() async throws {
        let daemon = try await RunningDaemon.start(["--scenario", "feed-updates"])
        let events = try await daemon.client.events()
        var iterator = events.makeAsyncIterator()
        #expect(try await iterator.next()?.name == "stateChanged")
        daemon.signal(SIGTERM)
        while try await iterator.next() != nil {}
        #expect(await daemon.exitStatus() == 0)
    }

    @Test func servesOnASocketHandedOverBySystemdSocketActivate() async throws {
        let directory = try Binaries.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("activated.sock").path
        let notify = try NotifyReceiver(path: directory.appendingPathComponent("notify.sock").path)
        let activator = Process()
        activator.executableURL = URL(fileURLWithPath: "/usr/bin/systemd-socket-activate")
        activator.arguments = ["--listen=\(socket)", "-E", "NOTIFY_SOCKET=\(notify.path)",
                               Binaries.scenariod, "--scenarios", Binaries.scenarios.path, "--scenario", "offline-demo", "--log-target", "stderr"]
        activator.standardOutput = FileHandle.nullDevice
        activator.standardError = FileHandle.nullDevice
        try activator.run()
        defer { if activator.isRunning { kill(activator.processIdentifier, SIGKILL) } }
        // systemd-socket-activate listens first and starts the daemon on the first connection.
        var waited = 0
        while !FileManager.default.fileExists(atPath: socket), waited < 300 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        let state = try await ControlClient(socketPath: socket).state()
        if case .array(let items)? = state["items"] { #expect(items.count == 4) } else { Issue.record("no items in \(state)") }
        let ready = await notify.waitFor("READY=1")
        #expect(ready?.contains("socket \(socket)") == true)
        kill(activator.processIdentifier, SIGTERM)
        activator.waitUntilExit()
        #expect(activator.terminationStatus == 0)
    }
}

extension NotifyReceiver {
    /// Waits for a message containing `text` that arrived after the first one containing `earlier`.
    func waitFor(after earlier: String, _ text: String) async -> String? {
        for _ in 0..<150 {
            let all = messages
            if let start = all.firstIndex(where: { $0.contains(earlier) }), let found = all[(start + 1)...].first(where: { $0.contains(text) }) {
                return found
            }
            _ = await waitFor("\u{0}never", limit: .milliseconds(200))
        }
        return nil
    }
}
