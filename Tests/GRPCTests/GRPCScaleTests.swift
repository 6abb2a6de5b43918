@testable import Fakes
import Foundation
import GRPCCore
@testable import GRPCFakes
import ScenarioGRPC
import Services
import SessionRuntime
import SwiftProtobuf
import Testing
import TripPlanner

/// A scripted server stream of 100,000 positions, 1 ms apart on the session's clock, read whole by a grpc-swift
/// client after one clock move: every message arrives, in order, and the journal's transcript stays bounded.
@Suite struct GRPCScaleTests {
    @Test func aHundredThousandScriptedMessagesArriveInOrder() async throws {
        let pool = try DescriptorPool(descriptorSet: Data(contentsOf: transitDescriptors))
        let codec = ProtobufJSON(pool: pool)
        let count = 100_000
        var script = RPCScript(statusOffset: .milliseconds(count + 1))
        for index in 0..<count {
            let json = JSONValue.object(["vehicle": .string("bus-1"), "delayMinutes": .int(index % 1000)])
            script.messages.append(.init(offset: .milliseconds(index + 1), message: try codec.encode(json, type: "transit.Position"), json: json))
        }
        let endpoint = GRPCEndpoint(method: try #require(pool.methods["/transit.Vehicles/Follow"]), pool: pool, script: script)
        var outcome = RouteOutcome(.response(NetworkResponse(status: 200)))
        outcome.answerer = endpoint
        let route = Route(name: "follow", matcher: RequestMatcher(url: .exact("https://vehicles.example/transit.Vehicles/Follow")), outcomes: [outcome])
        let clock = VirtualClock(start: Date(timeIntervalSince1970: 1_800_000_000), mode: .frozen)
        let journal = Journal()
        let network = RoutedNetwork(routes: [route], clock: clock) { await journal.record($0) }

        let reading = Task {
            try await withGRPCClient(transport: NetworkServiceTransport(network: network, target: URL(string: "https://vehicles.example")!)) { client in
                try await Transit_Vehicles.Client(wrapping: client).follow(.with { $0.vehicle = "bus-1" }) { response in
                    var read = 0
                    for try await position in response.messages {
                        guard position.delayMinutes == Int32(read % 1000) else { throw RPCError(code: .dataLoss, message: "position \(read) out of order") }
                        read += 1
                    }
                    return read
                }
            }
        }
        try await until { await !network.openStreams().isEmpty }
        _ = await clock.advance(by: .seconds(count / 1000 + 1))
        #expect(try await reading.value == count)
        let entry = try #require(await journal.all.first)
        #expect(entry.stream?.delivered == count && entry.stream?.close == WebSocketClose(code: 0))
        #expect((entry.stream?.chunks.reduce(0) { $0 + $1.text.utf8.count } ?? .max) <= StreamTranscript.keptBytes)
    }
}
