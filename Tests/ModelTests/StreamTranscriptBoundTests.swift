import Foundation
import Services
import Testing

/// A journal entry's transcript is bounded in bytes: its first chunks and its newest are kept, the ones between are
/// counted. Found: one reply of 100,001 chunks kept every one, 9.3 MB in one entry.
@Suite struct StreamTranscriptBoundTests {
    let start = Date(timeIntervalSince1970: 1_800_000_000)

    func chunk(_ number: Int) -> StreamChunk {
        StreamChunk(time: start.addingTimeInterval(Double(number) / 1000), text: "id: \(number)\ndata: {\"text\":\"token \(number)\"}\n\n")
    }

    @Test func aMillionChunksKeepTheFirstAndTheNewestWithinTheBound() throws {
        var transcript = StreamTranscript(kind: .events, openedAt: start, pending: 0, nextAt: nil)
        let count = 1_000_000
        for number in 0..<count { transcript.append(chunk(number)) }
        let kept = transcript.chunks
        #expect(transcript.delivered == count)
        #expect(kept.reduce(0) { $0 + $1.text.utf8.count } <= StreamTranscript.keptBytes)
        #expect(kept.first == chunk(0) && kept.last == chunk(count - 1) && transcript.lastChunk == chunk(count - 1))
        #expect(kept.count + transcript.elided == count)
        // The first ones, then the newest, each run in order with nothing missing inside it.
        let at = try #require(transcript.elidedAt)
        #expect(kept[..<at] == ArraySlice((0..<at).map(chunk)))
        #expect(kept[at...] == ArraySlice((count - (kept.count - at)..<count).map(chunk)))
    }

    @Test func aShortStreamKeepsEveryChunkAndSaysNothingElided() throws {
        var transcript = StreamTranscript(kind: .events, openedAt: start, pending: 0, nextAt: nil)
        for number in 0..<100 { transcript.append(chunk(number)) }
        #expect(transcript.chunks == (0..<100).map(chunk) && transcript.elided == 0 && transcript.elidedAt == nil)
        let json = String(decoding: try JSONEncoder().encode(transcript), as: UTF8.self)
        #expect(!json.contains("elided"))
    }

    /// The JSON says how many were elided and where; read back, it is the same transcript, and it goes on
    /// appending past the elided ones.
    @Test func theJournalsJSONSaysWhatWasElidedAndReadsBack() throws {
        var transcript = StreamTranscript(kind: .events, openedAt: start, pending: 0, nextAt: nil)
        for number in 0..<20_000 { transcript.append(chunk(number)) }
        let data = try JSONEncoder().encode(transcript)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["elided"] as? Int == transcript.elided && object["elidedAt"] as? Int == transcript.elidedAt)
        // The text within the bound; each chunk's instant and JSON escaping add to it.
        #expect(data.count < StreamTranscript.keptBytes * 3)
        var read = try JSONDecoder().decode(StreamTranscript.self, from: data)
        #expect(read == transcript && read.delivered == 20_000)
        read.append(chunk(20_000))
        #expect(read.lastChunk == chunk(20_000) && read.delivered == 20_001 && read.chunks.first == chunk(0))
    }

    /// A copy taken earlier reads what it had, however far the stream went on after it.
    @Test func aCopyTakenEarlierKeepsItsCount() {
        var transcript = StreamTranscript(kind: .events, openedAt: start, pending: 0, nextAt: nil)
        for number in 0..<50 { transcript.append(chunk(number)) }
        let earlier = transcript
        for number in 50..<5_000 { transcript.append(chunk(number)) }
        #expect(earlier.delivered == 50 && earlier.chunks == (0..<50).map(chunk) && earlier.lastChunk == chunk(49))
        var branch = earlier
        branch.append(chunk(7))
        #expect(branch.delivered == 51 && branch.lastChunk == chunk(7) && transcript.lastChunk == chunk(4_999))
    }
}
