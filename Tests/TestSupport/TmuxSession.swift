import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A terminal program run in tmux for a test: keys go in with `send-keys`, the screen comes
/// out with `capture-pane`. Each session has a tmux server of its own, killed at the end.
public final class TmuxSession: @unchecked Sendable {
    /// The tmux server's socket name (`tmux -L`).
    public let server: String
    private let tmux: String

    /// Whether tmux is installed.
    public static var isAvailable: Bool { findTmux() != nil }

    /// Starts `command` (run by the shell) in a detached session of `columns` × `rows`.
    public init(_ command: String, columns: Int = 100, rows: Int = 30, environment: [String: String] = [:]) throws {
        guard let tmux = Self.findTmux() else { throw TmuxMissing() }
        self.tmux = tmux
        server = "shaked-test-\(UUID().uuidString.prefix(8))"
        let exports = environment.sorted { $0.key < $1.key }.map { "export \($0.key)='\($0.value)'; " }.joined()
        try Self.detached(
            tmux,
            [
                "-L", server, "-f", "/dev/null", "new-session", "-d", "-x", String(columns), "-y", String(rows),
                exports + "exec " + command,
            ])
        // Keep the pane after the program exits, so a test can read what it printed last.
        _ = try? Self.detached(tmux, ["-L", server, "set-option", "-g", "remain-on-exit", "on"])
    }

    deinit { _ = try? Self.detached(tmux, ["-L", server, "kill-server"]) }

    /// Runs a tmux command and returns what it printed. tmux is spawned directly rather than
    /// through `Process`, with a clean signal mask: a tmux client
    /// that starts a server was seen left unreaped by Foundation's child monitor inside the
    /// test runner. Output goes to a file, not a pipe, which the server would hold open.
    @discardableResult
    private static func detached(_ tmux: String, _ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // The test runner's threads block most signals, and a spawned process inherits the mask:
        // a tmux server started with SIGTERM blocked ignores kill-server. Start it clean.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        var all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = ([tmux] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, tmux, &actions, &attributes, argv, environ)
        guard spawned == 0 else {
            throw TmuxFailed(what: arguments.joined(separator: " "), output: "spawn: \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS, which Swift does not import.
        guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else {
            throw TmuxFailed(what: arguments.joined(separator: " "), output: "wait status \(status)")
        }
        return text
    }

    /// Sends keys in tmux's names (`Enter`, `C-s`, `Escape`, `Left`) or, with `literal`, as text.
    public func send(_ keys: String..., literal: Bool = false) throws {
        try Self.detached(tmux, ["-L", server, "send-keys", "-t", "0"] + (literal ? ["-l"] : []) + keys)
    }

    /// The screen as plain text, one line per row.
    public func screen() throws -> String {
        try Self.detached(tmux, ["-L", server, "capture-pane", "-p", "-t", "0"])
    }

    /// The screen now, or nothing when tmux can't be asked (for failure messages).
    public var text: String { (try? screen()) ?? "" }

    /// Polls the screen every 50 ms until `condition` holds (then returns that screen), or
    /// `timeout` passes (then returns nil). Sleeps between polls without holding a thread, so
    /// tests waiting in parallel don't starve the concurrency pool.
    public func waitForScreen(
        _ timeout: Duration = .seconds(15), _ condition: (String) -> Bool
    ) async throws -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            let text = try screen()
            if condition(text) { return text }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits until the screen shows `text`.
    public func waitFor(_ text: String, timeout: Duration = .seconds(15)) async throws -> String? {
        try await waitForScreen(timeout) { $0.contains(text) }
    }

    private static func findTmux() -> String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/bin/tmux"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// tmux is not installed (`apt-get install tmux`).
public struct TmuxMissing: Error, CustomStringConvertible {
    /// What to do.
    public var description: String { "tmux is not installed: apt-get install tmux" }
}

/// A tmux command failed.
public struct TmuxFailed: Error, CustomStringConvertible {
    /// The tmux command.
    public var what: String
    /// What tmux said.
    public var output: String
    /// Both.
    public var description: String { "tmux \(what) failed: \(output)" }
}
