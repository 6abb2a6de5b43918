import Fakes
import Foundation
@testable import GRPCFakes
import Services
import SwiftProtobuf
import Testing
import TripPlanner

/// The descriptor-driven codec agrees with swift-protobuf's generated code: the bytes it writes decode to the
/// message meant, and the JSON it reads from swift-protobuf's bytes is swift-protobuf's own JSON mapping.
@Suite struct ProtobufJSONTests {
    static let codec = ProtobufJSON(pool: try! DescriptorPool(descriptorSet: Data(contentsOf: transitDescriptors)))

    static let position = Transit_Position.with {
        $0.vehicle = "tram-17"
        $0.lat = -33.5
        $0.lon = 151.25
        $0.delayMinutes = -4
        $0.occupancy = .standingOnly
        $0.observedAtMs = Int64.max - 7
        $0.nextStops = ["a", "ø", ""]
        $0.labels = ["line": "17", "ålesund": "x"]
    }

    @Test func bytesWrittenFromJSONDecodeToTheMessageMeant() throws {
        let json = try JSONValue(json: Data(try Self.position.jsonString().utf8))
        let bytes = try Self.codec.encode(json, type: "transit.Position")
        #expect(try Transit_Position(serializedBytes: bytes) == Self.position)
        // Proto names are read as well as JSON names, and numbers where proto3 writes 64-bit integers as strings.
        let written = try JSONValue(json: Data(#"{"delay_minutes": 3, "observed_at_ms": 12, "occupancy": 3}"#.utf8))
        let decoded = try Transit_Position(serializedBytes: try Self.codec.encode(written, type: "transit.Position"))
        #expect(decoded.delayMinutes == 3 && decoded.observedAtMs == 12 && decoded.occupancy == .full)
    }

    @Test func jsonReadFromBytesIsSwiftProtobufsOwnMapping() throws {
        let sighting = Transit_Sighting.with { $0.vehicle = "bus-1"; $0.photo = Data((0...255).map(UInt8.init)); $0.crowding = -70_000 }
        for (message, type) in [(Self.position as any SwiftProtobuf.Message, "transit.Position"), (sighting, "transit.Sighting"),
                                (Transit_ReportSummary.with { $0.sightings = .max; $0.vehicles = ["x"] }, "transit.ReportSummary")] {
            let read = try Self.codec.json(of: try message.serializedBytes(), type: type)
            let expected = try JSONValue(json: Data(try message.jsonString().utf8))
            #expect(read == expected, "\(type): \(String(decoding: read.jsonData, as: UTF8.self)) vs \(String(decoding: expected.jsonData, as: UTF8.self))")
        }
    }

    @Test func bytesThatAreNotTheMessageSayWhere() throws {
        #expect(throws: RPCDecodingError.self) { try Self.codec.json(of: Data([0x0a, 0x09, 0x61]), type: "transit.VehicleRef") }
        let error = #expect(throws: RPCDecodingError.self) { try Self.codec.json(of: Data([0x12, 0x01]), type: "transit.Position") }
        #expect(error?.message.contains("/lat has wire type 2 where a double has 1") == true, "\(String(describing: error))")
    }

    /// 100,000 messages each way through the codec, every one equal to swift-protobuf's own.
    @Test func aHundredThousandMessagesRoundTrip() throws {
        for index in 0..<100_000 {
            let position = Transit_Position.with {
                $0.vehicle = "bus-\(index)"
                $0.lat = Double(index) / 7
                $0.delayMinutes = Int32(index % 60) - 30
                $0.observedAtMs = Int64(index) * 1_000_003
                $0.nextStops = index % 3 == 0 ? [] : ["s\(index)"]
            }
            let bytes: Data = try position.serializedBytes()
            let json = try Self.codec.json(of: bytes, type: "transit.Position")
            let again = try Self.codec.encode(json, type: "transit.Position")
            guard try Transit_Position(serializedBytes: again) == position else {
                Issue.record("message \(index) changed on its way through JSON: \(String(decoding: json.jsonData, as: UTF8.self))")
                return
            }
        }
    }
}
