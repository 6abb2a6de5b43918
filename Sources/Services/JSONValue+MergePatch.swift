extension JSONValue {
    /// This value with `patch` applied as a JSON merge patch (RFC 7396): an object patch is merged into an object
    /// key by key, recursively, a `null` member removing its key; any other patch (an array, a string, a number,
    /// `null` itself) replaces the value whole. A patch object applied to something that is not an object is applied
    /// to an empty object, as the RFC's algorithm says, so `{"a": {"b": null}}` leaves no `null` behind.
    ///
    /// ```swift
    /// let state: JSONValue = ["title": "Goodbye!", "author": ["givenName": "John", "familyName": "Doe"]]
    /// state.mergePatched(with: ["title": "Hello!", "author": ["familyName": nil]])
    /// // ["title": "Hello!", "author": ["givenName": "John"]]
    /// ```
    public func mergePatched(with patch: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [String: JSONValue]
        if case .object(let current) = self { members = current } else { members = [:] }
        for (key, change) in changes {
            if change == .null {
                members[key] = nil
            } else {
                members[key] = (members[key] ?? .null).mergePatched(with: change)
            }
        }
        return .object(members)
    }
}
