import Services
import Yams

/// A YAML value that remembers where each part was written, down to every key and item, and in which file: a team
/// service's section, which `extends` merges across files and whose decoding errors must still name the place.
indirect enum LocatedValue {
    /// Where a value was written.
    struct Place {
        var file: String
        var line: Int?
        var column: Int?
    }

    case object([(key: String, keyPlace: Place, value: LocatedValue)], Place)
    case array([LocatedValue], Place)
    case scalar(JSONValue, Place)

    /// `node` of `file`, read as `reader.json` reads it.
    init(_ node: Node, file: String, reader: NodeReader) {
        let place = Place(file: file, line: node.mark?.line, column: node.mark?.column)
        switch node {
        case .mapping(let mapping):
            self = .object(mapping.map { key, value in
                (key.scalar?.string ?? "", Place(file: file, line: key.mark?.line, column: key.mark?.column),
                 LocatedValue(value, file: file, reader: reader))
            }, place)
        case .sequence(let sequence):
            self = .array(sequence.map { LocatedValue($0, file: file, reader: reader) }, place)
        default:
            self = .scalar(reader.json(node), place)
        }
    }

    /// `json`, every part placed at `place` (a value that was not written in any file).
    init(json: JSONValue, place: Place) {
        switch json {
        case .object(let fields):
            self = .object(fields.keys.sorted().map { ($0, place, LocatedValue(json: fields[$0] ?? .null, place: place)) }, place)
        case .array(let items):
            self = .array(items.map { LocatedValue(json: $0, place: place) }, place)
        default:
            self = .scalar(json, place)
        }
    }

    var place: Place {
        switch self {
        case .object(_, let place), .array(_, let place), .scalar(_, let place): place
        }
    }

    var json: JSONValue {
        switch self {
        case .object(let entries, _): .object(Dictionary(entries.map { ($0.key, $0.value.json) }) { first, _ in first })
        case .array(let items, _): .array(items.map(\.json))
        case .scalar(let value, _): value
        }
    }

    /// This value written over `parent`: mappings merge key by key, deeply; anything else replaces the parent's.
    func merged(over parent: LocatedValue) -> LocatedValue {
        guard case .object(let entries, let place) = self, case .object(var merged, _) = parent else { return self }
        for entry in entries {
            if let index = merged.firstIndex(where: { $0.key == entry.key }) {
                merged[index] = (entry.key, entry.keyPlace, entry.value.merged(over: merged[index].value))
            } else {
                merged.append(entry)
            }
        }
        return .object(merged, place)
    }

    /// Where the value at `path` was written: the key that names it, or the deepest value found on the way.
    func place(of path: [ServiceStateDecoding.Step]) -> Place {
        guard let first = path.first else { return place }
        switch (self, first) {
        case (.object(let entries, _), .key(let key)):
            guard let entry = entries.first(where: { $0.key == key }) else { return place }
            return path.count == 1 ? entry.keyPlace : entry.value.place(of: Array(path.dropFirst()))
        case (.array(let items, _), .index(let index)) where items.indices.contains(index):
            return items[index].place(of: Array(path.dropFirst()))
        default:
            return place
        }
    }

}
