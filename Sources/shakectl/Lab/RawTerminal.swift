import Foundation
import SystemPackage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The terminal's settings before raw mode, for the signal handlers to put back. On the heap, at
/// the size Swift gives `termios` (60 bytes): AddressSanitizer found tcgetattr writing 60 bytes
/// into a global `termios`, which the Swift 6.3 compiler lays out as 57.
nonisolated(unsafe) private let savedSettings: UnsafeMutablePointer<termios> = {
    let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    pointer.initialize(to: termios())
    return pointer
}()

/// Escape sequences that leave the alternate screen and show the cursor again.
private let leaveScreen: [UInt8] = Array("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l".utf8)

/// Puts the terminal back and dies of the signal as if no handler were installed.
/// Only async-signal-safe calls: tcsetattr, write, signal, raise.
private func restoreAndDie(_ signal: Int32) {
    // The signal is delivered again when the handler returns; until then errno is the interrupted code's.
    let savedErrno = errno
    defer { errno = savedErrno }
    _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, savedSettings)
    _ = leaveScreen.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    _ = Glibc.signal(signal, SIG_DFL)
    _ = raise(signal)
}

/// The controlling terminal in raw mode, on the alternate screen, for the demo.
///
/// Raw mode delivers every key at once, unechoed, with Ctrl-C, Ctrl-Z, Ctrl-S and Ctrl-Q as
/// bytes rather than signals or flow control. The terminal is put back by ``restore()``, and
/// also when the process is killed by SIGTERM, SIGHUP, SIGINT or SIGQUIT, or crashes.
final class RawTerminal {
    private var restored = false

    /// The settings raw mode changes; the rest of the original stays.
    static func raw(from original: termios) -> termios {
        var raw = original
        raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
        raw.c_cflag |= tcflag_t(CS8)
        raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }

    /// Enters raw mode and the alternate screen; fails when standard input is not a terminal.
    init() throws {
        guard isatty(STDIN_FILENO) == 1, tcgetattr(STDIN_FILENO, savedSettings) == 0 else {
            throw TerminalError(
                description: "the demo needs a terminal: run it in a terminal window (or in tmux), not through a pipe")
        }
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP] {
            _ = Glibc.signal(signal) { restoreAndDie($0) }
        }
        var raw = Self.raw(from: savedSettings.pointee)
        guard tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw) == 0 else {
            throw TerminalError(description: "cannot put the terminal in raw mode: \(String(cString: strerror(errno)))")
        }
        write("\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J")
    }

    deinit { restore() }

    /// Leaves raw mode and the alternate screen, and shows the cursor.
    func restore() {
        guard !restored else { return }
        restored = true
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, savedSettings)
        _ = try? FileDescriptor.standardOutput.writeAll(leaveScreen)
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP] {
            _ = Glibc.signal(signal, SIG_DFL)
        }
    }

    /// The terminal's size in columns and rows (80 × 24 when it cannot be asked).
    var size: (columns: Int, rows: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0 else {
            return (80, 24)
        }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// Writes text as it is, all of it, at once (swift-system retries EINTR); a terminal gone takes nothing.
    func write(_ text: String) {
        _ = try? FileDescriptor.standardOutput.writeAll(text.utf8)
    }
}

/// The terminal cannot be used for the demo.
struct TerminalError: Error, CustomStringConvertible {
    /// What is wrong and what to do.
    var description: String
}
