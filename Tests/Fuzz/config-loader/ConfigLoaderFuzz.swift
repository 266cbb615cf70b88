// Fuzz target: the configuration loader (systemd-style [Section] and Key=value lines), fed whole files.
//
// The input is written to a file in /dev/shm and read by `ShakedSettings.check(configFile:)`,
// exactly as `shaked --config FILE` and `shaked --check-config` read it: size, UTF-8 and NUL
// checks, the line syntax, the schema, every range and the detector's joint checks. A file that
// is accepted must give settings within the documented ranges; one that is refused must name
// every problem with a message; reading the same file twice must give the same answer.
// Built by scripts/fuzz.sh.
import Glibc
import ShakedConfiguration

let directory = "/dev/shm/shaked-fuzz-\(getpid())"
let input = "\(directory)/shaked.conf"

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    mkdir(directory, 0o700)
    atexit {
        _ = unlink(input)
        _ = rmdir(directory)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeFile(input, UnsafeRawBufferPointer(start: data, count: size))
    let result = ShakedSettings.check(configFile: input, etcDirectory: directory)
    require(result.files == [input], "the loader read other files: \(result.files)")
    if result.isValid {
        let s = result.settings
        require(ShakedSettings.Prompt.timeouts.contains(s.prompt.timeout), "Prompt.Timeout \(s.prompt.timeout)")
        require(ShakedSettings.Prompt.cooldowns.contains(s.prompt.cooldown), "Prompt.Cooldown \(s.prompt.cooldown)")
        // The ranges config/shaked.conf documents, written out here so that the loader is held to them.
        require(
            (1...4096).contains(s.limits.connectionsPerUser), "Limits.ConnectionsPerUser \(s.limits.connectionsPerUser)"
        )
        require((1...65536).contains(s.limits.subscriptions), "Limits.Subscriptions \(s.limits.subscriptions)")
        require((1...10000).contains(s.limits.callsPerSecond), "Limits.CallsPerSecond \(s.limits.callsPerSecond)")
        require(
            s.socket.path.utf8.count <= ShakedSettings.Socket.maximumPathBytes, "Socket.Path is \(s.socket.path)")
        require(s.socket.mode <= 0o777, "Socket.Mode \(s.socket.modeText)")
    } else {
        for problem in result.problems {
            require(!problem.message.isEmpty, "a problem without a message: \(problem)")
            require(problem.line.map { $0 >= 1 } ?? true, "a problem on line \(problem.line!)")
        }
        _ = result.report
    }
    let again = ShakedSettings.check(configFile: input, etcDirectory: directory)
    require(again.problems == result.problems && again.settings == result.settings, "a second read differs")
    return 0
}

func writeFile(_ path: String, _ bytes: UnsafeRawBufferPointer) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    require(fd >= 0, "cannot create \(path)")
    var offset = 0
    while offset < bytes.count {
        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
        require(written > 0, "cannot write \(path)")
        offset += written
    }
    close(fd)
}

/// A broken promise: unlike `precondition`, keeps its message in an optimized build.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}
