package import Foundation
package import Mustache
package import Services

/// Templated streams: a streamed answer's chunks filled per request, as its body would be.
extension ResponseTemplate {
    /// A chunk of a streamed answer whose text is a template, and how text put into it is escaped.
    package struct ChunkTemplate: Sendable {
        /// How a filled value is written into the chunk.
        package enum Escaping: Sendable, Hashable {
            /// As it is: a raw chunk (`text`).
            case none
            /// As inside a JSON string: an event whose data is JSON.
            case json
            /// Each line break continuing the event's data on another `data:` line, so a value that spans lines
            /// cannot end the event or start a field of its own.
            case eventData
        }

        /// The chunk's whole text (an event in its wire format, or a raw chunk), as a template.
        package var template: MustacheTemplate
        /// How filled values are escaped.
        package var escaping: Escaping

        /// A chunk template.
        package init(template: MustacheTemplate, escaping: Escaping) {
            self.template = template
            self.escaping = escaping
        }
    }

    /// `script` with each templated chunk (``chunks``, by index) filled from `request`, which arrived at `now`.
    package func render(_ script: StreamScript, request: NetworkRequest, now: Date) -> StreamScript {
        var rendered = script
        for (index, chunk) in chunks where rendered.items.indices.contains(index) {
            let escape: @Sendable (String) -> String = switch chunk.escaping {
            case .none: Self.unescaped
            case .json: Self.jsonEscaped
            case .eventData: Self.eventDataEscaped
            }
            let text: String = chunk.template.render(Self.context(request, now: now, escape: escape), library: nil)
            rendered.items[index].bytes = Data(text.utf8)
        }
        return rendered
    }

    @Sendable static func eventDataEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .replacingOccurrences(of: "\n", with: "\ndata: ")
    }
}
