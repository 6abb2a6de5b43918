import Services
import Testing

/// Characters that print as nothing, or as something else, are named where messages show text.
@Suite struct VisibleTextTests {
    @Test(arguments: [
        ("\u{FEFF}", "<U+FEFF BYTE ORDER MARK>"),
        ("a\u{0}b", "a<U+0000 NULL>b"),
        ("tab\there", "tab<U+0009 CHARACTER TABULATION>here"),
        ("\u{7F}\u{85}\u{9B}", "<U+007F DELETE><U+0085 NEXT LINE><U+009B CONTROL CHARACTER>"),
        ("zero\u{200B}width", "zero<U+200B ZERO WIDTH SPACE>width"),
        ("\u{202E}evil", "<U+202E RIGHT-TO-LEFT OVERRIDE>evil"),
        ("line\u{2028}sep", "line<U+2028 LINE SEPARATOR>sep"),
        ("no\u{A0}break", "no<U+00A0 NO-BREAK SPACE>break"),
        ("private\u{F8B1E}", "private<U+F8B1E PRIVATE USE CHARACTER>"),
        ("unassigned\u{378}", "unassigned<U+0378 UNASSIGNED CHARACTER>"),
    ])
    func anInvisibleCharacterIsNamed(text: String, shown: String) {
        #expect(VisibleText.showing(text) == shown)
    }

    @Test func visibleTextIsLeftAsItIs() {
        for text in ["plain", "with space", "ÁÐÚ café", "日本語", "emoji 🎉", "a/b..c", ""] {
            #expect(VisibleText.showing(text) == text)
        }
    }
}
