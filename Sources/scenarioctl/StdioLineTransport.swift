import Foundation
import Logging
import MCP

/// MCP's stdio transport: one JSON-RPC message per line, read from standard input by a thread blocked in `read(2)`.
///
/// Written here because the SDK's `StdioTransport` (swift-sdk 0.12.1) makes standard input non-blocking and sleeps
/// 10 ms whenever nothing is there: up to 10 ms more on every call, and a hundred wake-ups a second while an agent
/// sits idle. A blocked read wakes only when a message comes. The descriptors also stay blocking, as the client that
/// shares them expects (non-blocking is a flag of the open file, not of this process's descriptor).
actor StdioLineTransport: Transport {
    nonisolated let logger = Logger(label: "scenarioctl.mcp.stdio")
    private let messages: AsyncThrowingStream<Data, any Error>
    private let received: AsyncThrowingStream<Data, any Error>.Continuation
    private var reading = false
    /// Tool calls, answered as they are read (``DirectToolCalls``); nil: every message goes to the SDK.
    private let direct: DirectToolCalls?

    init(answering direct: DirectToolCalls? = nil) {
        (messages, received) = AsyncThrowingStream.makeStream()
        self.direct = direct
    }

    func connect() async throws {
        guard !reading else { return }
        reading = true
        let received = received
        let direct = direct
        // A thread of its own, not one of the cooperative pool's: it spends its life blocked in read(2).
        let reader = Thread {
            let answering = DispatchGroup()
            let failure = Self.readLines(from: STDIN_FILENO) { line in
                if let direct, let call = direct.request(in: line) {
                    answering.enter()
                    Task {
                        try? await self.send(await direct.answer(call))
                        answering.leave()
                    }
                } else {
                    received.yield(line)
                }
            }
            // The answers on their way are written before the SDK hears of the end, which ends the process: a client
            // that closes its side after its last request still reads the answer.
            answering.wait()
            received.finish(throwing: failure)
        }
        reader.name = "mcp-stdin"
        reader.start()
    }

    func disconnect() async {
        received.finish()
    }

    /// Writes `message` and its newline whole. A client that stops reading holds the caller here, as a full pipe should.
    func send(_ message: Data) async throws {
        var line = message
        line.append(UInt8(ascii: "\n"))
        try line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
                }
                offset += written
            }
        }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    /// Reads `descriptor` until its end, handing each non-empty line without its newline to `line`.
    /// - Returns: nil at the end, or the error reading failed with.
    private static func readLines(from descriptor: Int32, _ line: (Data) -> Void) -> MCPError? {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return MCPError.transportError(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO))
            }
            if count == 0 { return nil }
            // Only the bytes just read can hold a newline: what was pending had none.
            var searchFrom = pending.count
            pending.append(contentsOf: buffer[..<count])
            var lineStart = 0
            while let newline = pending[searchFrom...].firstIndex(of: UInt8(ascii: "\n")) {
                if newline > lineStart { line(Data(pending[lineStart..<newline])) }
                lineStart = newline + 1
                searchFrom = lineStart
            }
            pending.removeFirst(lineStart)
        }
    }
}
