import Benchmark
import ControlServer
import Foundation
import Hummingbird
import Logging
import NIOCore
import ScenarioHost

/// Target 5 (control API): one keep-alive `GET /v1/sessions/default/state` served by the real control server in
/// this process, next to the floor: a bare Hummingbird application answering the same bytes on the same kind of
/// socket. The client allocates nothing per request, so the malloc counts are the servers'.
func controlRequestBenchmarks() {
    Benchmark("control: GET session state", configuration: .perOperation) { benchmark, client in
        roundTrip(client, benchmark)
    } setup: {
        try await startControlServer().client
    }

    Benchmark("control floor: Hummingbird, same body", configuration: .perOperation) { benchmark, client in
        roundTrip(client, benchmark)
    } setup: {
        // The body the control server answers, so both send the same bytes.
        let body = try await startControlServer().client.lastBody
        let router = Router()
        router.get(RouterPath(statePath)) { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"],
                     body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
        let path = try BenchmarkInputs.scratchDirectory().appendingPathComponent("floor.sock").path
        let app = Application(router: router, configuration: .init(address: .unixDomainSocket(path: path)), logger: quietLogger)
        Task { try await app.run() }
        return try BlockingSocketClient(path: path, request: stateRequest)
    }
}

private let statePath = "/v1/sessions/default/state"
private let stateRequest = "GET \(statePath) HTTP/1.1\r\nHost: localhost\r\nAccept: application/json\r\n\r\n"
private let quietLogger: Logger = {
    var logger = Logger(label: "scenariod.benchmark")
    logger.logLevel = .warning
    return logger
}()

/// The daemon's control server over a host with a default session of offline-demo, and a client of it that has
/// made one request already.
private func startControlServer() async throws -> (server: Task<Void, any Error>, client: BlockingSocketClient) {
    let host = try BenchmarkInputs.host()
    try await host.createSession(of: "offline-demo", id: "default")
    let path = try BenchmarkInputs.scratchDirectory().appendingPathComponent("control.sock").path
    let server = ControlSocketServer(
        listener: .path(path), host: host,
        configuration: ControlConfiguration(version: "benchmark", defaultSession: "default", reload: { await host.catalog }),
        logger: quietLogger)
    let task = Task { try await server.run() }
    let client = try BlockingSocketClient(path: path, request: stateRequest)
    let status = try client.roundTrip()
    guard status == 200 else { throw BenchmarkInputError("GET \(statePath) answered \(status)") }
    return (task, client)
}

private func roundTrip(_ client: BlockingSocketClient, _ benchmark: Benchmark) {
    do {
        let status = try client.roundTrip()
        if status != 200 { benchmark.error("GET \(statePath) answered \(status)") }
    } catch {
        benchmark.error("\(error)")
    }
}
