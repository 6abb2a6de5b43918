import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import LiveServices
import NIOPosix
import ScenarioGRPC
import Services
import SessionRuntime
import SwiftProtobuf
import Testing
import TripPlanner

/// Live routes: the call goes to a real grpc-swift server on loopback over grpc-swift-nio-transport, relayed and
/// journaled message by message.
@Suite struct GRPCLiveTests {
    /// The operator's server: positions for known vehicles, NOT_FOUND for others, `count` positions when followed.
    struct Operator: Transit_Vehicles.SimpleServiceProtocol {
        func locate(request: Transit_VehicleRef, context: ServerContext) async throws -> Transit_Position {
            guard request.vehicle.hasPrefix("bus-") else { throw RPCError(code: .notFound, message: "no vehicle \(request.vehicle)") }
            return .with { $0.vehicle = request.vehicle; $0.lat = 59.9; $0.occupancy = .seatsAvailable }
        }

        func follow(request: Transit_VehicleRef, response: RPCWriter<Transit_Position>, context: ServerContext) async throws {
            let count = Int(request.vehicle.split(separator: "-").last ?? "") ?? 3
            for index in 0..<count {
                try await response.write(.with { $0.vehicle = request.vehicle; $0.delayMinutes = Int32(index % 1000) })
            }
        }

        func report(request: RPCAsyncSequence<Transit_Sighting, any Error>, context: ServerContext) async throws -> Transit_ReportSummary {
            var summary = Transit_ReportSummary()
            for try await sighting in request {
                summary.sightings += 1
                if !summary.vehicles.contains(sighting.vehicle) { summary.vehicles.append(sighting.vehicle) }
            }
            return summary
        }

        func track(request: RPCAsyncSequence<Transit_Sighting, any Error>, response: RPCWriter<Transit_Position>, context: ServerContext) async throws {
            for try await sighting in request { try await response.write(.with { $0.vehicle = sighting.vehicle }) }
        }
    }

    static let routes = """
        - name: operator
          request: {urlPattern: 'http://127\\.0\\.0\\.1:[0-9]+/transit\\.Vehicles/.*'}
          live: true
        - name: positions
          request: {url: https://vehicles.example/transit.Vehicles/Locate}
          response: {grpc: {descriptors: transit.pb, messages: [{value: {vehicle: scripted}}]}}
        """

    /// The servers' own event loop, for the whole run: the shared ones carry the other tests' clients, which a long
    /// stream would hold up.
    static let serverLoop = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// Runs `body` with a routed network whose live route reaches the operator's server on a loopback port.
    static func withOperator(_ body: @Sendable (RoutedNetwork, Journal, URL) async throws -> Void) async throws {
        let transport = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext, eventLoopGroup: Self.serverLoop)
        let live = LiveNetwork()
        let result = await Result {
            try await withGRPCServer(transport: transport, services: [Operator()]) { _ in
                let port = try #require(try await transport.listeningAddress.ipv4?.port)
                let (network, _, journal) = try network(scenario(routes: routes), upstream: live)
                try await body(network, journal, URL(string: "http://127.0.0.1:\(port)")!)
            }
        }
        await live.shutdown()
        try result.get()
    }

    @Test func aLiveCallReachesTheRealServerAndIsJournaledInJSON() async throws {
        try await Self.withOperator { network, journal, target in
            try await withGRPCClient(transport: NetworkServiceTransport(network: network, target: target)) { client in
                let vehicles = Transit_Vehicles.Client(wrapping: client)
                let position = try await vehicles.locate(.with { $0.vehicle = "bus-7" })
                #expect(position.vehicle == "bus-7" && position.occupancy == .seatsAvailable)
                let missing = await #expect(throws: RPCError.self) { try await vehicles.locate(.with { $0.vehicle = "tram-1" }) }
                #expect(missing?.code == .notFound && missing?.message == "no vehicle tram-1")
                let summary = try await vehicles.report(requestProducer: { writer in
                    for vehicle in ["bus-1", "bus-2", "bus-1"] { try await writer.write(.with { $0.vehicle = vehicle }) }
                })
                #expect(summary.sightings == 3 && summary.vehicles == ["bus-1", "bus-2"])
            }
            let entries = await journal.all
            #expect(entries.count == 3 && entries.allSatisfy { $0.live == true && $0.route == "operator" })
            #expect(entries[0].body == #"{"vehicle":"bus-7"}"# && entries[0].stream?.close == .init(code: 0))
            #expect(entries[0].stream?.chunks.map(\.text) == [#"{"lat":59.9,"occupancy":"SEATS_AVAILABLE","vehicle":"bus-7"}"#])
            #expect(entries[1].stream?.close == .init(code: 5, reason: "no vehicle tram-1"))
            #expect(entries[2].stream?.chunks.filter { $0.sent == true }.map(\.text) == [#"{"vehicle":"bus-2"}"#, #"{"vehicle":"bus-1"}"#])
        }
    }

    @Test func aServerThatCannotBeReachedMakesTheCallUnavailable() async throws {
        // A port nothing listens on: bound, then closed, by a server of our own.
        let closed = HTTP2ServerTransport.Posix(address: .ipv4(host: "127.0.0.1", port: 0), transportSecurity: .plaintext, eventLoopGroup: Self.serverLoop)
        var port = 0
        try await withGRPCServer(transport: closed, services: [Operator()]) { _ in
            port = try #require(try await closed.listeningAddress.ipv4?.port)
        }
        let live = LiveNetwork()
        let (network, _, journal) = try network(scenario(routes: Self.routes), upstream: live)
        let result = await Result {
            try await withGRPCClient(transport: NetworkServiceTransport(network: network, target: URL(string: "http://127.0.0.1:\(port)")!)) { client in
                let error = await #expect(throws: RPCError.self) { try await Transit_Vehicles.Client(wrapping: client).locate(.with { $0.vehicle = "bus-1" }) }
                #expect(error?.code == .unavailable)
            }
        }
        await live.shutdown()
        try result.get()
        #expect(await journal.all.first?.stream?.close?.code == 14)
    }

    /// 20,000 positions from the real server through the relay: every one arrives, in order, and the journal's
    /// transcript stays within its bound. (100,000 go through a scripted call in GRPCScaleTests: here the HTTP/2
    /// connection's client side shares the event loops of the other tests' clients.)
    @Test func twentyThousandLiveMessagesArriveInOrder() async throws {
        try await Self.withOperator { network, journal, target in
            try await withGRPCClient(transport: NetworkServiceTransport(network: network, target: target)) { client in
                let count = try await Transit_Vehicles.Client(wrapping: client).follow(.with { $0.vehicle = "bus-20000" }) { response in
                    var count = 0
                    for try await position in response.messages {
                        guard position.delayMinutes == Int32(count % 1000) else { throw RPCError(code: .dataLoss, message: "position \(count) out of order") }
                        count += 1
                    }
                    return count
                }
                #expect(count == 20_000)
            }
            let entry = try #require(await journal.all.first)
            #expect(entry.stream?.delivered == 20_000 && entry.stream?.close == .init(code: 0))
            let kept = entry.stream?.chunks.reduce(0) { $0 + $1.text.utf8.count } ?? 0
            #expect(kept <= StreamTranscript.keptBytes)
        }
    }
}
