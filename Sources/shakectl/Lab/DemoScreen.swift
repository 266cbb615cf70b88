import ShakeClient
import UndoProtocol

/// What the demo shows, drawn whole on every change.
struct DemoView {
    /// One line of the notes.
    struct Line: Equatable {
        var text: String
        var bold: Bool
    }

    var socket: String
    var lines: [Line] = []
    var selected = 0
    var input = ""
    var status = "Type a line and press Enter, then press Ctrl-S to shake the device."
    /// The line shown in reverse video after an undo or redo, and whether the status is highlighted too.
    var highlightedLine: Int?
    var highlightStatus = false
    var connection = ConnectionState.connecting
    var undoName: String?
    var redoName: String?
    /// The open prompt and the index of the focused action.
    var alert: (request: PromptRequest, focus: Int)?

    static let keyHelp = [
        "Enter add the typed line · ↑/↓ select · Ctrl-D delete line · Ctrl-B bold · Ctrl-Z undo · Ctrl-Y redo",
        "Ctrl-S or F5 shake the device · Ctrl-C or Ctrl-Q quit",
    ]

    /// The whole screen as ANSI text for a terminal of `columns` × `rows`.
    func render(columns: Int, rows: Int) -> String {
        var out = "\u{1B}[H"
        func row(_ number: Int, _ text: String) {
            out += "\u{1B}[\(number);1H\u{1B}[2K" + text
        }
        let connection = connectionText
        let title = " shakectl demo · Notes"
        row(
            1,
            "\u{1B}[1m" + title + "\u{1B}[0m" + spaces(columns - width(title) - width(connection.text) - 1)
                + connection.style + connection.text + "\u{1B}[0m")
        row(2, String(repeating: "─", count: columns))
        let listRows = max(1, rows - 8)
        let first = max(0, min(selected - listRows + 1, lines.count - listRows))
        for index in 0..<listRows {
            let number = 3 + index
            let lineIndex = first + index
            if lines.isEmpty && index == 0 {
                row(number, "\u{1B}[2m  No notes yet: type a line and press Enter.\u{1B}[0m")
            } else if lineIndex < lines.count {
                row(number, noteRow(lineIndex, columns: columns))
            } else {
                row(number, "")
            }
        }
        row(rows - 5, String(repeating: "─", count: columns))
        row(rows - 4, "> " + clip(input, columns - 3) + "\u{1B}[7m \u{1B}[0m")
        row(rows - 3, (highlightStatus ? "\u{1B}[7m" : "") + clip(status, columns) + "\u{1B}[0m")
        let undo = undoName.map { "Undo \($0)" } ?? "nothing to undo"
        let redo = redoName.map { "Redo \($0)" } ?? "nothing to redo"
        row(rows - 2, "\u{1B}[2m" + clip("Can: \(undo) · \(redo)", columns) + "\u{1B}[0m")
        row(rows - 1, clip(Self.keyHelp[0], columns))
        row(rows, clip(Self.keyHelp[1], columns))
        if let alert {
            out += AlertBox(request: alert.request, focus: alert.focus).render(columns: columns, rows: rows)
        }
        return out
    }

    private func noteRow(_ index: Int, columns: Int) -> String {
        let line = lines[index]
        let marker = index == selected ? "▸" : " "
        let number = pad(String(index + 1), 3)
        var style = ""
        if line.bold { style += "\u{1B}[1m" }
        if index == highlightedLine { style += "\u{1B}[7m" }
        return "\(marker)\(number)  " + style + clip(line.text, columns - 7) + "\u{1B}[0m"
    }

    private var connectionText: (text: String, style: String) {
        switch connection {
        case .connected: ("● connected", "\u{1B}[32m")
        case .connecting, .stopped: ("○ connecting…", "\u{1B}[33m")
        case .waiting(_, let retryIn):
            ("○ reconnecting, next try in \(decimal(retryIn / .seconds(1), 1)) s", "\u{1B}[31m")
        }
    }
}

/// The terminal alert for a prompt: title, optional message, buttons from left to right
/// (Cancel first), the focused one in reverse video and the default one in bold.
struct AlertBox {
    var request: PromptRequest
    var focus: Int

    /// Escape sequences that draw the box centred over whatever is on screen.
    func render(columns: Int, rows: Int) -> String {
        let prompt = request.prompt
        let buttons = prompt.actions.map { "[ \($0.label) ]" }
        let buttonsWidth = buttons.reduce(0) { $0 + width($1) } + 3 * max(0, buttons.count - 1)
        let hint = "←/→ or Tab choose · Enter confirm · Esc cancel"
        let message = prompt.message.map { wrap($0, 44) } ?? []
        let inner = max(36, width(prompt.title), buttonsWidth, width(hint), message.map(width).max() ?? 0) + 4
        var content: [String] = [
            spaces(inner), centred("\u{1B}[1m" + prompt.title + "\u{1B}[22m", width(prompt.title), inner),
        ]
        content += message.map { centred($0, width($0), inner) }
        content.append(spaces(inner))
        let defaultRole = request.defaultAction?.role
        let drawn = zip(prompt.actions.indices, buttons).map { index, text in
            var style = prompt.actions[index].role == defaultRole ? "\u{1B}[1m" : ""
            if index == focus { style += "\u{1B}[7m" }
            return style + text + "\u{1B}[22;27m"
        }
        content.append(centred(drawn.joined(separator: "   "), buttonsWidth, inner))
        content.append(spaces(inner))
        content.append(centred("\u{1B}[2m" + hint + "\u{1B}[22m", width(hint), inner))
        let top = max(1, (rows - content.count - 2) / 2)
        let left = max(1, (columns - inner - 2) / 2 + 1)
        var out = "\u{1B}[0m"
        func line(_ offset: Int, _ text: String) { out += "\u{1B}[\(top + offset);\(left)H" + text }
        line(0, "╭" + String(repeating: "─", count: inner) + "╮")
        for (index, text) in content.enumerated() { line(index + 1, "│" + text + "\u{1B}[0m│") }
        line(content.count + 1, "╰" + String(repeating: "─", count: inner) + "╯")
        return out
    }

    private func centred(_ text: String, _ textWidth: Int, _ inner: Int) -> String {
        let left = max(0, (inner - textWidth) / 2)
        return spaces(left) + text + spaces(inner - textWidth - left)
    }

    private func wrap(_ text: String, _ limit: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty && width(current) + 1 + width(String(word)) > limit {
                lines.append(current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { lines.append(current) }
        return lines
    }
}

/// Columns a text takes in a terminal: East Asian wide characters (Hangul among them) take two.
func width(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { total, scalar in
        switch scalar.value {
        case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
            0xFFE0...0xFFE6:
            total + 2
        case 0x0300...0x036F, 0x200B...0x200F: total
        default: total + 1
        }
    }
}

/// Text cut to at most `limit` columns.
func clip(_ text: String, _ limit: Int) -> String {
    var result = ""
    var used = 0
    for character in text {
        let w = width(String(character))
        if used + w > limit { break }
        result.append(character)
        used += w
    }
    return result
}

/// `count` spaces (none for a negative count).
func spaces(_ count: Int) -> String { String(repeating: " ", count: max(0, count)) }
