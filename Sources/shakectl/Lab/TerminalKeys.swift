import Foundation
import SystemPackage

/// A key pressed in the terminal.
enum Key: Equatable, Sendable {
    /// A printable character.
    case character(Character)
    /// Ctrl and a letter, given lower-case ("b" for Ctrl-B).
    case control(Character)
    case enter, backspace, tab, backTab, escape, up, down, left, right, delete
    /// A function key by number (F5).
    case function(Int)
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, and the
/// escape sequences of xterm and tmux for arrows, Delete, Shift-Tab and F1-F12.
struct KeyParser {
    /// Bytes of a character or sequence split across reads.
    private var pending: [UInt8] = []

    /// The keys in `bytes`, keeping an incomplete UTF-8 character for the next call. A lone
    /// ESC at the end of a read is the Escape key.
    mutating func keys(from bytes: [UInt8]) -> [Key] {
        var input = pending + bytes
        pending = []
        var keys: [Key] = []
        var i = 0
        while i < input.count {
            let byte = input[i]
            switch byte {
            case 0x1B:
                let (key, used) = Self.escapeSequence(input[(i + 1)...])
                keys.append(key)
                i += 1 + used
                continue
            case 0x0D, 0x0A: keys.append(.enter)
            case 0x7F, 0x08: keys.append(.backspace)
            case 0x09: keys.append(.tab)
            case 0x01...0x1A: keys.append(.control(Character(UnicodeScalar(byte + 0x60))))
            case 0x20...0x7E: keys.append(.character(Character(UnicodeScalar(byte))))
            case 0xC0...0xFF:
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard i + length <= input.count else {
                    pending = Array(input[i...])
                    input.removeAll()
                    continue
                }
                if let text = String(validating: input[i..<(i + length)], as: UTF8.self), let character = text.first {
                    keys.append(.character(character))
                }
                i += length
                continue
            default: break
            }
            i += 1
        }
        return keys
    }

    /// The key an ESC starts, and how many bytes after the ESC it used.
    static func escapeSequence(_ rest: ArraySlice<UInt8>) -> (Key, Int) {
        guard let introducer = rest.first, introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else {
            return (.escape, 0)
        }
        var parameters = ""
        var used = 1
        for byte in rest.dropFirst() {
            used += 1
            guard (0x40...0x7E).contains(byte) else {
                parameters.append(Character(UnicodeScalar(byte)))
                continue
            }
            let number = Int(parameters.split(separator: ";").first ?? "") ?? 0
            switch UnicodeScalar(byte) {
            case "A": return (.up, used)
            case "B": return (.down, used)
            case "C": return (.right, used)
            case "D": return (.left, used)
            case "Z": return (.backTab, used)
            case "P", "Q", "R", "S": return (.function(Int(byte) - 0x4F), used)
            case "~":
                let functionKeys = [
                    11: 1, 12: 2, 13: 3, 14: 4, 15: 5, 17: 6, 18: 7, 19: 8, 20: 9, 21: 10, 23: 11, 24: 12,
                ]
                if number == 3 { return (.delete, used) }
                return (functionKeys[number].map(Key.function) ?? .escape, used)
            default: return (.escape, used)
            }
        }
        return (.escape, used)
    }
}

/// Reads standard input on a thread of its own (the read blocks) and hands on the keys.
enum KeyReader {
    /// Starts reading; `deliver` gets the keys of each read, and nil when input ends.
    static func start(_ deliver: @escaping @Sendable ([Key]?) -> Void) {
        let thread = Thread {
            var parser = KeyParser()
            var buffer = [UInt8](repeating: 0, count: 256)
            while true {
                // swift-system retries EINTR; an error ends the input as its end does.
                let count = try? buffer.withUnsafeMutableBytes { try FileDescriptor.standardInput.read(into: $0) }
                guard let count, count > 0 else {
                    deliver(nil)
                    return
                }
                deliver(parser.keys(from: Array(buffer[0..<count])))
            }
        }
        thread.start()
    }
}
