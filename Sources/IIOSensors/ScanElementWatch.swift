#if canImport(Glibc)
    import Glibc
#endif

/// The `scan_elements/*_en` of a buffer another process set up, as they were when a reader laid out
/// its scans, read again without allocating to tell whether that layout still holds.
///
/// A time-shared reader decodes the other process's scans with the layout of the elements enabled when
/// it opened. The kernel refuses `*_en` writes while a buffer runs, but between two of the reader's
/// reads the other process may disable its buffer, enable other elements and enable it again: iio-sensor-proxy
/// 3.7 does at its discovery, its teardown (`buffer_drv_data_free()` clears every `*_en`, one after
/// another) and at each claim. A reader that read the elements in the middle of that (x, y and z enabled,
/// the timestamp not yet or no longer) would cut each 16-byte scan into 6-byte ones: 2.7 samples for
/// every scan, most of them garbage. ``changed()`` after a read tells it to lay out again.
struct ScanElementWatch: ~Copyable {
    /// The `*_en` files, as C paths, made once.
    private let paths: [UnsafeMutablePointer<CChar>]
    /// Whether each was enabled when the layout was made.
    private let enabled: [Bool]
    private let buffer: UnsafeMutableRawBufferPointer

    /// Watches the `*_en` files of `scanElements` (a `scan_elements` directory): `enabled` names the
    /// elements (`in_accel_x`) the layout was made from; `names` every element found there.
    init(scanElements directory: String, names: [String], enabled: Set<String>) {
        paths = names.map { strdup("\(directory)/\($0)_en")! }
        self.enabled = names.map { enabled.contains($0) }
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16, alignment: 8)
    }

    deinit {
        for path in paths { free(path) }
        buffer.deallocate()
    }

    /// The first element whose `*_en` differs now from the layout's (enabled, or no longer readable),
    /// by its file's path; nil when every one is as it was.
    func changed() -> String? {
        for (path, wasEnabled) in zip(paths, enabled) where isEnabled(path) != wasEnabled {
            return String(cString: path)
        }
        return nil
    }

    /// Whether the `*_en` file at `path` reads 1; a file that cannot be read counts as not enabled.
    private func isEnabled(_ path: UnsafeMutablePointer<CChar>) -> Bool {
        guard let count = try? readAttributeOnce(path, into: buffer, path: String(cString: path)) else { return false }
        return count > 0 && buffer[0] == UInt8(ascii: "1")
    }
}
