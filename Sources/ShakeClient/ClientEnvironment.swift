import UndoProtocol

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a client finds the daemon and which language it composes prompts in, from the
/// process environment.
public enum ClientEnvironment {
    /// The daemon's socket when nothing else is said: `/run/shaked/io.shaked.Undo`.
    public static let defaultSocketPath = UndoInterface.defaultSocketPath

    /// The socket to use: `$SHAKED_SOCKET` when set and not empty, else ``defaultSocketPath``.
    public static func socketPath(environment: [String: String] = current) -> String {
        if let path = environment["SHAKED_SOCKET"], !path.isEmpty { return path }
        return defaultSocketPath
    }

    /// The language of prompts from the POSIX locale variables, in their order of precedence:
    /// `LC_ALL`, then `LC_MESSAGES`, then `LANG` (the first set and not empty decides);
    /// English when none is set, for `C` and `POSIX`, and for languages without translations.
    public static func language(environment: [String: String] = current) -> PromptLanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return PromptLanguage(locale: value) }
        }
        return .english
    }

    /// This process's environment (`environ`; where a name repeats, the first wins, as with `getenv`).
    public static var current: [String: String] {
        var variables: [String: String] = [:]
        // NULL after clearenv(3).
        let first: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = environ
        guard var entry = first else { return variables }
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.utf8.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(text[..<equals])
                if variables[name] == nil { variables[name] = String(text[text.index(after: equals)...]) }
            }
            entry += 1
        }
        return variables
    }
}
