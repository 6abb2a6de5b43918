// The floor of a test's four requests on the HTTP stack scenariod is built on: a plain Hummingbird application on a
// Unix socket answering them with the bytes the daemon answers, held in memory, and doing nothing else. The socket
// harness (Benchmarks/harness/run.py) times it beside nginx and the daemon, so the table shows how much of a test's
// overhead is the HTTP stack's and how much is the daemon's own.
//
// Usage: HummingbirdFloor SOCKET DIRECTORY, where DIRECTORY holds the bodies `create`, `action` and `state`.
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: HummingbirdFloor SOCKET DIRECTORY (with the bodies create, action and state)\n".utf8))
    exit(64)
}
let directory = URL(fileURLWithPath: arguments[2])

func body(_ name: String) -> ByteBuffer {
    let file = directory.appendingPathComponent(name)
    guard let data = FileManager.default.contents(atPath: file.path) else {
        FileHandle.standardError.write(Data("HummingbirdFloor: cannot read \(file.path); the harness writes it from the daemon's answers\n".utf8))
        exit(66)
    }
    return ByteBuffer(bytes: data)
}

let created = body("create"), performed = body("action"), state = body("state")
let json: HTTPFields = [.contentType: "application/json"]
let router = Router()
// Request bodies are read, as the daemon reads them.
router.post("/v1/sessions") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 1 << 20)
    return Response(status: .created, headers: json, body: ResponseBody(byteBuffer: created))
}
router.post("/v1/sessions/:session/actions/:action") { request, _ -> Response in
    _ = try await request.body.collect(upTo: 1 << 20)
    return Response(status: .ok, headers: json, body: ResponseBody(byteBuffer: performed))
}
router.get("/v1/sessions/:session/state") { _, _ -> Response in
    Response(status: .ok, headers: json, body: ResponseBody(byteBuffer: state))
}
router.delete("/v1/sessions/:session") { _, _ -> Response in
    Response(status: .noContent)
}
// What the harness asks of any server it starts before timing it.
router.get("/v1/health") { _, _ -> Response in
    Response(status: .ok, headers: json, body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"ok"}"#)))
}
let application = Application(router: router, configuration: ApplicationConfiguration(address: .unixDomainSocket(path: arguments[1])))
try await application.runService()
