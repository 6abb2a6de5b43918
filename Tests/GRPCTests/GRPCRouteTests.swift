import Fakes
import Foundation
import GRPCCore
import ScenarioGRPC
import Services
import SessionRuntime
import SwiftProtobuf
import Testing
import TripPlanner

/// A grpc-swift 2 client (the trip planner's generated `Transit_Vehicles.Client`) over ``NetworkServiceTransport``,
/// answered by gRPC routes: each kind of call, statuses, near misses, the session's clock, and the journal.
@Suite struct GRPCRouteTests {
    static let routes = """
        - name: locate-unknown
          request: {url: https://vehicles.example/transit.Vehicles/Locate, bodyFields: {/vehicle: bus-999}}
          response:
            grpc: {descriptors: transit.pb, status: {code: NOT_FOUND, message: no vehicle bus-999}, trailers: {x-reason: retired}}
        - name: locate
          request: {url: https://vehicles.example/transit.Vehicles/Locate}
          response:
            headers: {x-operator: ruter}
            grpc:
              descriptors: transit.pb
              messages:
                - value: {vehicle: bus-100, lat: 59.91, lon: 10.75, delayMinutes: -2, occupancy: FULL, observedAtMs: "1800000000123",
                          nextStops: [majorstuen, blindern], labels: {line: "100", mode: bus}}
        - name: broken
          request: {url: https://vehicles.example/transit.Vehicles/Follow, bodyFields: {/vehicle: broken}}
          response: {fault: connectionReset}
        - name: follow
          request: {url: https://vehicles.example/transit.Vehicles/Follow}
          response:
            grpc:
              descriptors: transit.pb
              messages:
                - {at: +30s, value: {vehicle: bus-100, lat: 1}}
                - {at: +1m, value: {vehicle: bus-100, lat: 2}}
              status: {code: OK, at: +2m}
        - name: report
          request: {url: https://vehicles.example/transit.Vehicles/Report}
          response:
            grpc:
              descriptors: transit.pb
              messages: [{value: {sightings: 3, vehicles: [bus-100]}}]
        - name: track
          request: {url: https://vehicles.example/transit.Vehicles/Track, bodyFields: {/vehicle: bus-100}}
          response:
            grpc:
              descriptors: transit.pb
              messages: [{value: {vehicle: bus-100, lat: 0}}]
              replies:
                - when: {bodyFields: {/stop: blindern}}
                  send: [{at: +1s, value: {vehicle: bus-100, lat: 59.94}}]
                - when: {bodyFields: {/stop: majorstuen}}
                  once: true
                  send: [{value: {vehicle: bus-100, lat: 59.93}}, {at: +2s, value: {vehicle: bus-100, lat: 59.935}}]
        - name: plain
          request: {url: https://other.example/transit.Vehicles/Locate}
          response: {status: 503}
        """

    static func client(_ network: RoutedNetwork, target: String = "https://vehicles.example",
                       _ body: @Sendable @escaping (Transit_Vehicles.Client<NetworkServiceTransport>) async throws -> Void) async throws {
        let transport = NetworkServiceTransport(network: network, target: URL(string: target)!)
        try await withGRPCClient(transport: transport) { client in
            try await body(Transit_Vehicles.Client(wrapping: client))
        }
    }

    static func ref(_ vehicle: String) -> Transit_VehicleRef { .with { $0.vehicle = vehicle } }

    @Test func aUnaryCallGetsItsMessageMetadataAndJournalEntryInJSON() async throws {
        let (network, _, journal) = try network(scenario(routes: Self.routes))
        try await Self.client(network) { vehicles in
            let response = try await vehicles.locate(Self.ref("bus-100")) { $0 }
            let position = try response.message
            #expect(position.vehicle == "bus-100" && position.lat == 59.91 && position.delayMinutes == -2 && position.occupancy == .full)
            #expect(position.observedAtMs == 1_800_000_000_123 && position.nextStops == ["majorstuen", "blindern"])
            #expect(position.labels == ["line": "100", "mode": "bus"])
            #expect(response.metadata[stringValues: "x-operator"].map { $0 } == ["ruter"])
        }
        let entry = try #require(await journal.all.first)
        #expect(entry.route == "locate" && entry.method == "POST" && entry.url == "https://vehicles.example/transit.Vehicles/Locate")
        #expect(entry.body == #"{"vehicle":"bus-100"}"# && entry.status == 200)
        #expect(entry.stream?.kind == .rpc && entry.stream?.close == WebSocketClose(code: 0) && entry.stream?.state == .closed)
        #expect(entry.stream?.chunks.first?.text.hasPrefix(#"{"delayMinutes":-2,"labels":{"line":"100","mode":"bus"},"lat":59.91"#) == true)
    }

    @Test func aStatusWithItsMessageAndTrailersReachesTheClientAsAnRPCError() async throws {
        let (network, _, journal) = try network(scenario(routes: Self.routes))
        try await Self.client(network) { vehicles in
            let error = await #expect(throws: RPCError.self) { try await vehicles.locate(Self.ref("bus-999")) }
            #expect(error?.code == .notFound && error?.message == "no vehicle bus-999")
            #expect(error?.metadata[stringValues: "x-reason"].map { $0 } == ["retired"])
        }
        #expect(await journal.all.first?.stream?.close == WebSocketClose(code: 5, reason: "no vehicle bus-999"))
    }

    @Test func aServerStreamDeliversEachMessageWhenTheSessionsClockReachesIt() async throws {
        let (network, clock, journal) = try network(scenario(routes: Self.routes))
        let start = clock.now()
        let (heard, hear) = AsyncStream<Double>.makeStream()
        let call = Task {
            try await Self.client(network) { vehicles in
                try await vehicles.follow(Self.ref("bus-100")) { response in
                    for try await position in response.messages { hear.yield(position.lat) }
                }
            }
            hear.finish()
        }
        var positions = heard.makeAsyncIterator()
        try await until { await !network.openStreams().isEmpty }
        // Nothing is due before +30s; each clock move releases what it reaches, and the status ends the call at +2m.
        _ = await clock.advance(by: .seconds(30))
        #expect(await positions.next() == 1)
        _ = await clock.advance(by: .seconds(30))
        #expect(await positions.next() == 2)
        _ = await clock.advance(by: .seconds(60))
        #expect(await positions.next() == nil)
        try await call.value
        let entry = try #require(await journal.all.first)
        #expect(entry.stream?.chunks.map { $0.time.timeIntervalSince(start) } == [30, 60])
        #expect(entry.stream?.close == WebSocketClose(code: 0) && entry.stream?.state == .closed)
    }

    @Test func aClientStreamIsAnsweredOnceTheClientEndsAndEveryMessageIsJournaled() async throws {
        let (network, _, journal) = try network(scenario(routes: Self.routes))
        try await Self.client(network) { vehicles in
            let summary = try await vehicles.report(requestProducer: { writer in
                for (stop, crowding) in [("majorstuen", -3), ("blindern", 0), ("forskningsparken", 5)] {
                    try await writer.write(.with { $0.vehicle = "bus-100"; $0.stop = stop; $0.crowding = Int32(crowding); $0.photo = Data([1, 2, 255]) })
                }
            })
            #expect(summary.sightings == 3 && summary.vehicles == ["bus-100"])
        }
        let entry = try #require(await journal.all.first)
        #expect(entry.body == #"{"crowding":-3,"photo":"AQL/","stop":"majorstuen","vehicle":"bus-100"}"#)
        // proto3 leaves a field at its default off the wire, so crowding 0 is not there to show.
        let sent = entry.stream?.chunks.filter { $0.sent == true }.map(\.text)
        #expect(sent == [#"{"photo":"AQL/","stop":"blindern","vehicle":"bus-100"}"#,
                         #"{"crowding":5,"photo":"AQL/","stop":"forskningsparken","vehicle":"bus-100"}"#])
    }

    @Test func aBidirectionalCallAnswersEachLaterMessageByItsReply() async throws {
        let (network, clock, journal) = try network(scenario(routes: Self.routes))
        let (outbox, post) = AsyncStream<String>.makeStream()
        let (heard, hear) = AsyncStream<Double>.makeStream()
        let call = Task {
            try await Self.client(network) { vehicles in
                try await vehicles.track(requestProducer: { writer in
                    for await stop in outbox { try await writer.write(.with { $0.vehicle = "bus-100"; $0.stop = stop }) }
                }, onResponse: { response in
                    for try await position in response.messages { hear.yield(position.lat) }
                })
            }
            hear.finish()
        }
        var positions = heard.makeAsyncIterator()
        post.yield("start")
        #expect(await positions.next() == 0)
        post.yield("majorstuen")
        #expect(await positions.next() == 59.93)
        _ = await clock.advance(by: .seconds(2))
        #expect(await positions.next() == 59.935)
        post.yield("majorstuen")  // its reply was once: nothing answers it now
        post.yield("blindern")
        try await until { await journal.all.first?.stream?.chunks.filter { $0.sent == true }.count == 3 }
        _ = await clock.advance(by: .seconds(1))
        #expect(await positions.next() == 59.94)
        post.finish()
        #expect(await positions.next() == nil)
        try await call.value
        let sent = await journal.all.first?.stream?.chunks.filter { $0.sent == true }.map(\.text)
        #expect(sent?.count == 3)
    }

    @Test func anUnmatchedCallIsUnavailableAndJournaledWithItsNearMisses() async throws {
        let yaml = scenario(routes: """
            - name: locate-tram
              request: {url: https://vehicles.example/transit.Vehicles/Locate, bodyFields: {/vehicle: tram-17}}
              response:
                grpc: {descriptors: transit.pb, messages: [{value: {vehicle: tram-17}}]}
            """)
        let (network, _, journal) = try network(yaml)
        try await Self.client(network) { vehicles in
            let error = await #expect(throws: RPCError.self) { try await vehicles.locate(Self.ref("bus-100")) }
            #expect(error?.code == .unavailable)
        }
        let entry = try #require(await journal.all.first)
        #expect(entry.isUnmatched && entry.fault == "connectionRefused")
        let miss = try #require(entry.nearMisses?.first)
        #expect(miss.route == "locate-tram" && miss.field == "/body/vehicle" && miss.expected.contains("tram-17") && miss.actual.contains("bus-100"))
    }

    @Test func aFaultOrAPlainHTTPAnswerEndsTheCallAsGRPCSays() async throws {
        let (network, _, _) = try network(scenario(routes: Self.routes))
        try await Self.client(network) { vehicles in
            let broken = await #expect(throws: RPCError.self) {
                try await vehicles.follow(Self.ref("broken")) { response in for try await _ in response.messages {} }
            }
            #expect(broken?.code == .unavailable)
        }
        try await Self.client(network, target: "https://other.example") { vehicles in
            let plain = await #expect(throws: RPCError.self) { try await vehicles.locate(Self.ref("bus-100")) }
            #expect(plain?.code == .unavailable && plain?.message.contains("HTTP 503") == true)
        }
    }

    @Test func aTestClosingAnOpenCallEndsItOK() async throws {
        let (network, _, journal) = try network(scenario(routes: Self.routes))
        let (counted, count) = AsyncStream<Int>.makeStream()
        let call = Task {
            try await Self.client(network) { vehicles in
                let seen = try await vehicles.follow(Self.ref("bus-100")) { response in
                    var seen = 0
                    for try await _ in response.messages { seen += 1 }
                    return seen
                }
                count.yield(seen)
            }
            count.finish()
        }
        try await until { await !network.openStreams().isEmpty }
        let open = await network.openStreams()
        try await network.close(open[0].sequence, with: .close)
        try await call.value
        #expect(await counted.first { _ in true } == 0)
        #expect(await journal.all.first?.stream?.close == WebSocketClose(code: 0))
        #expect(await #expect(throws: RoutedNetwork.StreamSteeringError.self) { try await network.close(open[0].sequence, with: .close) } == .notOpen)
    }

    @Test func aClientWhoseRequestsFailGivesTheCallUpInsteadOfEndingIt() async throws {
        let (network, _, journal) = try network(scenario(routes: Self.routes))
        struct Refused: Error {}
        try await Self.client(network) { vehicles in
            // The route would answer a finished stream with its summary; a producer that throws must not get it.
            await #expect(throws: (any Error).self) {
                try await vehicles.report(requestProducer: { writer in
                    try await writer.write(.with { $0.vehicle = "bus-100" })
                    throw Refused()
                })
            }
        }
        try await until { await journal.all.first?.stream?.state == .cancelled }
        #expect(await journal.all.first?.stream?.chunks.isEmpty == true)
    }
}
