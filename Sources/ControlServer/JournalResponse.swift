import ControlAPI
import NIOCore
import ScenarioHost

/// A journal read's body, written one way for the router and for ``DirectReadResponder``: the session keeps the
/// buffer the last read assembled (by its type), so both paths send the same kept buffer until the journal changes.
enum JournalResponse {
    /// The body of `GET …/journal` (or `…/unmatched`) from the entries' kept JSON.
    static func body(_ journal: EncodedJournal) -> ByteBuffer {
        ByteBuffer(bytes: JournalBody.json(entries: journal.entries, dropped: journal.dropped, capacity: journal.capacity))
    }
}
