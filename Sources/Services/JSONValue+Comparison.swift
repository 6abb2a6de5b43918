/// Where two JSON values first differ, for messages that point at the difference instead of printing both whole.
public struct JSONMismatch: Sendable, Hashable, CustomStringConvertible {
    /// The JSON pointer (RFC 6901) of the first place that differs; empty for the values themselves.
    public var pointer: String
    /// The first value's part there, or nil where it has none.
    public var left: JSONValue?
    /// The second value's part there, or nil where it has none.
    public var right: JSONValue?

    /// A mismatch at `pointer`.
    public init(pointer: String, left: JSONValue?, right: JSONValue?) {
        self.pointer = pointer
        self.left = left
        self.right = right
    }

    /// `/items/0/id: "a" against "b"`, with `(absent)` for a side that has nothing there.
    public var description: String {
        func shown(_ value: JSONValue?) -> String { value.map { String(decoding: $0.jsonData, as: UTF8.self) } ?? "(absent)" }
        return "\(pointer.isEmpty ? "(the whole value)" : pointer): \(shown(left)) against \(shown(right))"
    }
}

extension JSONValue {
    /// The first place, in document order (an object's keys sorted), where `self` and `other` differ exactly; nil
    /// when they are equal. Numbers compare by value, so `1` and `1.0` are equal, as in JSON.
    public func firstMismatch(with other: JSONValue, at pointer: String = "") -> JSONMismatch? {
        switch (self, other) {
        case (.object(let left), .object(let right)):
            for key in Set(left.keys).union(right.keys).sorted() {
                let place = pointer + "/" + Self.pointerToken(key)
                switch (left[key], right[key]) {
                case (let mine?, let theirs?):
                    if let mismatch = mine.firstMismatch(with: theirs, at: place) { return mismatch }
                case (let mine, let theirs):
                    return JSONMismatch(pointer: place, left: mine, right: theirs)
                }
            }
            return nil
        case (.array(let left), .array(let right)):
            for index in 0..<max(left.count, right.count) {
                let place = "\(pointer)/\(index)"
                guard index < left.count, index < right.count else {
                    return JSONMismatch(pointer: place, left: index < left.count ? left[index] : nil, right: index < right.count ? right[index] : nil)
                }
                if let mismatch = left[index].firstMismatch(with: right[index], at: place) { return mismatch }
            }
            return nil
        case (.int(let left), .double(let right)): return Double(left) == right ? nil : JSONMismatch(pointer: pointer, left: self, right: other)
        case (.double(let left), .int(let right)): return left == Double(right) ? nil : JSONMismatch(pointer: pointer, left: self, right: other)
        default: return self == other ? nil : JSONMismatch(pointer: pointer, left: self, right: other)
        }
    }
}
