#if canImport(Glibc)
    import Glibc
#endif

/// Reads and writes sysfs attribute files through the checked system calls.
///
/// Attributes are opened, read and closed each time, as the kernel regenerates their text on
/// each open. A missing file is `nil` on read (drivers differ in what they offer); every other
/// failure, permission above all, is an ``IIOError`` naming the file. The kernel hands out at
/// most a page per attribute, so a file longer than ``maximumAttributeBytes`` is refused
/// rather than read into memory.
enum Sysfs {
    /// The longest attribute text read: 16 KiB, the largest page size of the kernels we run on.
    static let maximumAttributeBytes = 16_384

    /// The text of an attribute, or nil if the file does not exist.
    static func read(_ path: String) throws(IIOError) -> String? {
        let fd: Int32
        do throws(IIOError) {
            fd = try checkErrno("open", path: path) { open(path, O_RDONLY | O_CLOEXEC) }
        } catch  where error.errno == ENOENT || error.errno == ENOTDIR {
            return nil
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 8)
        defer { chunk.deallocate() }
        while true {
            let count = try checkErrno("read", path: path) { Glibc.read(fd, chunk.baseAddress, chunk.count) }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= maximumAttributeBytes else {
                throw IIOError(
                    .malformedAttribute, call: "read", path: path,
                    "the attribute is longer than \(maximumAttributeBytes) bytes, which no IIO driver writes; "
                        + "check the driver")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether a file exists (without reading it).
    static func exists(_ path: String) -> Bool {
        access(path, F_OK) == 0
    }

    /// Writes an attribute's text.
    static func write(_ path: String, _ text: String) throws(IIOError) {
        let fd = try checkErrno("open", path: path) { open(path, O_WRONLY | O_CLOEXEC) }
        defer { close(fd) }
        let utf8 = Array(text.utf8)
        let written = try checkErrno("write", path: path) { Glibc.write(fd, utf8, utf8.count) }
        guard written == utf8.count else {
            throw IIOError(.shortRead, call: "write", path: path, "wrote \(written) of \(utf8.count) bytes")
        }
    }
}

/// One sysfs attribute read over and over (a polled `in_accel_x_raw`) without allocating.
///
/// The C path is built once; each ``readInteger()`` opens, reads into a fixed buffer, closes
/// and parses digits in place.
struct PolledAttribute: ~Copyable {
    /// The attribute's path, for errors.
    let path: String
    private let cPath: UnsafeMutablePointer<CChar>
    private let buffer: UnsafeMutableRawBufferPointer

    /// Prepares to read `path`.
    init(path: String) {
        self.path = path
        cPath = strdup(path)!
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 8)
    }

    deinit {
        free(cPath)
        buffer.deallocate()
    }

    /// Reads the attribute and parses it as an integer.
    func readInteger() throws(IIOError) -> Int64 {
        let count = try readAttributeOnce(cPath, into: buffer, path: path)
        guard count > 0 else {
            throw IIOError(.shortRead, call: "read", path: path, "the attribute was empty; the driver may be unbinding")
        }
        guard count < buffer.count else {
            throw IIOError(
                .malformedAttribute, call: "read", path: path,
                "the attribute is longer than \(buffer.count - 1) bytes, too long for a reading; check the driver")
        }
        guard let value = parseInteger(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
            let text = String(decoding: buffer[0..<count], as: UTF8.self)
            throw IIOError.malformed(path, text, expected: "an integer")
        }
        return value
    }
}

/// Opens the attribute at `cPath`, reads it once into `buffer` and closes it, without allocating: the
/// byte count. `path` names it in the error, made only on failure.
func readAttributeOnce(
    _ cPath: UnsafePointer<CChar>, into buffer: UnsafeMutableRawBufferPointer, path: @autoclosure () -> String
) throws(IIOError) -> Int {
    let fd = try checkErrno("open", path: path()) { open(cPath, O_RDONLY | O_CLOEXEC) }
    defer { close(fd) }
    return try checkErrno("read", path: path()) { Glibc.read(fd, buffer.baseAddress, buffer.count) }
}

/// Parses `[-+]digits` followed by optional whitespace, without allocating.
func parseInteger(_ bytes: UnsafeRawBufferPointer) -> Int64? {
    var i = 0
    var negative = false
    if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
        negative = bytes[i] == UInt8(ascii: "-")
        i += 1
    }
    var value: Int64 = 0
    var digits = 0
    while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") {
        let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
        let (sum, o2) = shifted.addingReportingOverflow(Int64(bytes[i] - UInt8(ascii: "0")))
        if o1 || o2 { return nil }
        value = sum
        digits += 1
        i += 1
    }
    while i < bytes.count, bytes[i] == UInt8(ascii: "\n") || bytes[i] == UInt8(ascii: " ") { i += 1 }
    guard digits > 0, i == bytes.count else { return nil }
    return negative ? -value : value
}
