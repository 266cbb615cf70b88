/// The characters no text from a client, a device or a file may carry raw to a person's screen, a
/// terminal or a log line: Unicode Cc controls (NUL, CR, LF, ESC, DEL, the C1 range), the
/// bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
/// and the line and paragraph separators (U+2028, U+2029). One definition for every module that
/// refuses or escapes them, so they cannot drift apart.
extension Unicode.Scalar {
    /// Whether this scalar can start a forged line, move a terminal's cursor or reorder what a
    /// reader sees.
    public var isHiddenInText: Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F: true  // Unicode Cc
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidi formatting
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }

    /// The scalar as `\u{1b}`: how escaped text shows a hidden scalar.
    public var escapedForm: String { "\\u{" + String(value, radix: 16) + "}" }
}

extension StringProtocol {
    /// The text with every hidden scalar (``Swift/Unicode/Scalar/isHiddenInText``) written as
    /// `\u{…}`, safe to print on a terminal or in a log line.
    public var escapingHiddenScalars: String {
        guard unicodeScalars.contains(where: \.isHiddenInText) else { return String(self) }
        var result = ""
        for scalar in unicodeScalars {
            if scalar.isHiddenInText { result += scalar.escapedForm } else { result.unicodeScalars.append(scalar) }
        }
        return result
    }
}
