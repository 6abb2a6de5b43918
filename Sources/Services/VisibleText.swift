/// Text as error messages show it: a character that prints as nothing or as something else (a byte order mark, a
/// NUL, a zero-width space, a right-to-left override, a line separator, a no-break space) is named instead, as
/// `<U+FEFF BYTE ORDER MARK>`, so a person reading `found ''` or `'a?b'` is not left guessing.
public enum VisibleText {
    /// `text` with each invisible or look-alike character replaced by its code point and name in angle brackets.
    public static func showing(_ text: some StringProtocol) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
            if let name = name(of: scalar) { shown += "<\(name)>" } else { shown.unicodeScalars.append(scalar) }
        }
        return shown
    }

    /// `U+FEFF BYTE ORDER MARK` for a character that does not show as itself; nil for one that does (a space
    /// included).
    public static func name(of scalar: Unicode.Scalar) -> String? {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar.properties.generalCategory {
        case .control:
            let name = scalar.value < 0x20 ? controlNames[Int(scalar.value)] : scalar.value == 0x7F ? "DELETE" : scalar.value == 0x85 ? "NEXT LINE" : "CONTROL CHARACTER"
            return "\(code) \(name)"
        case .spaceSeparator where scalar == " ":
            return nil
        case .format, .lineSeparator, .paragraphSeparator, .spaceSeparator, .privateUse, .unassigned, .surrogate:
            // The Unicode name; a byte order mark is better known by that name than as a zero-width no-break space.
            let category = scalar.properties.generalCategory
            let name = scalar == "\u{FEFF}" ? "BYTE ORDER MARK"
                : scalar.properties.name ?? (category == .privateUse ? "PRIVATE USE CHARACTER" : "UNASSIGNED CHARACTER")
            return "\(code) \(name)"
        default:
            return nil
        }
    }

    /// The C0 control characters' names (Unicode's NameAliases.txt), which Swift's Unicode data does not carry.
    private static let controlNames = [
        "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT", "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE",
        "ALERT", "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION", "FORM FEED", "CARRIAGE RETURN",
        "SHIFT OUT", "SHIFT IN", "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK", "CANCEL",
        "END OF MEDIUM", "SUBSTITUTE", "ESCAPE", "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
    ]
}
