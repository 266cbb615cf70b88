// Fuzz target: trace files (`t,x,y,z` CSV), `.labels` and `.events` files, read from disk as the
// tools do.
//
// The input is written to a file in /dev/shm and read back by TraceReader, Labels.read and
// Events.read.
// Whatever is accepted must keep the readers' promises: times strictly increasing (in whole
// nanoseconds, as the detector sees them), finite values within the documented limits, label
// intervals and clips increasing and disjoint, a clip's class printable and bounded. A refusal must be a TraceError naming a line. Samples that
// were accepted are written again with TraceWriter, and the reader must accept that file too.
// Built by scripts/fuzz.sh.
import Glibc
import ShakeDetection
import Traces

let directory = "/dev/shm/shaked-fuzz-\(getpid())"
let input = "\(directory)/input.csv"
let rewritten = "\(directory)/rewritten.csv"

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>
) -> CInt {
    mkdir(directory, 0o700)
    atexit {
        _ = unlink(input)
        _ = unlink(rewritten)
        _ = rmdir(directory)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    writeFile(input, UnsafeRawBufferPointer(start: data, count: size))
    let samples = readTrace(input)
    readLabels(input)
    readEvents(input)
    if let samples, !samples.isEmpty { rewrite(samples) }
    return 0
}

/// Reads a trace, checking what is accepted; nil when the reader refused the file.
func readTrace(_ path: String) -> [Sample]? {
    var samples: [Sample] = []
    var iterator = TraceReader(path: path).makeIterator()
    do {
        while let sample = try iterator.nextSample() {
            require(sample.x.isFinite && sample.y.isFinite && sample.z.isFinite, "a value is not finite")
            require(
                max(abs(sample.x), abs(sample.y), abs(sample.z)) <= TraceReader.accelerationLimit,
                "a value is out of range")
            require(abs(sample.seconds) <= TraceReader.timeLimit + 1, "a time is out of range")
            if let last = samples.last {
                require(sample.timestamp > last.timestamp, "time does not increase: \(last) then \(sample)")
            }
            samples.append(sample)
        }
    } catch {
        require(error.code != .unreadable, "the fuzz input file could not be read: \(error)")
        require((error.line ?? 0) >= 1, "a trace error names no line: \(error)")
        return nil
    }
    return samples
}

/// Reads the same bytes as a labels file.
func readLabels(_ path: String) {
    do {
        let intervals = try Labels.read(path: path)
        var previousEnd = -Double.infinity
        for interval in intervals {
            require(interval.start.isFinite && interval.end.isFinite, "a label is not finite")
            require(interval.start >= 0 && interval.start < interval.end, "a label is empty or negative")
            require(interval.start >= previousEnd, "labels overlap")
            previousEnd = interval.end
        }
        _ = Labels.format(intervals)
    } catch {
        require(error.code == .badLabel, "unexpected labels error: \(error)")
    }
}

/// Reads the same bytes as an events file.
func readEvents(_ path: String) {
    do {
        let clips = try Events.read(path: path)
        var previousEnd = -Double.infinity
        for clip in clips {
            require(clip.start.isFinite && clip.end.isFinite, "a clip is not finite")
            require(clip.start >= 0 && clip.start < clip.end, "a clip is empty or negative")
            require(clip.start >= previousEnd, "clips overlap")
            require(!clip.gesture.isEmpty, "a clip has no class")
            require(clip.gesture.count <= Events.classLimit, "a class is longer than \(Events.classLimit)")
            require(
                clip.gesture.unicodeScalars.allSatisfy { $0.properties.generalCategory != .control },
                "a class holds a control character")
            require(clip.gesture.first != " " && clip.gesture.last != " ", "a class has a space at an end")
            previousEnd = clip.end
        }
    } catch {
        require(error.code == .badEvent, "unexpected events error: \(error)")
    }
}

/// Writes the accepted samples as `shakectl record` would, and reads them back.
func rewrite(_ samples: [Sample]) {
    do {
        let writer = try TraceWriter(path: rewritten)
        for sample in samples { try writer.write(sample) }
        try writer.close()
    } catch {
        fatalError("TraceWriter refused samples the reader accepted: \(error)")
    }
    guard let again = readTrace(rewritten) else {
        var iterator = TraceReader(path: rewritten).makeIterator()
        var error: TraceError?
        do { while try iterator.nextSample() != nil {} } catch let e { error = e }
        fatalError("the reader refuses what TraceWriter wrote: \(error.map(String.init(describing:)) ?? "?")")
    }
    require(again.count == samples.count, "the rewritten trace has \(again.count) samples, not \(samples.count)")
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
