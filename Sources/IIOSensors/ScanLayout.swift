/// Where each enabled channel sits in one IIO scan, computed as the kernel does.
///
/// Channels appear in order of their scan index; each is aligned to its own storage size, and
/// the scan is padded to a multiple of its largest element. With x, y, z as s16 and a 64-bit
/// timestamp, a scan is 16 bytes: x at 0, y at 2, z at 4, two bytes of padding, timestamp at 8.
public struct ScanLayout: Sendable, Hashable {
    /// One enabled channel: its scan index and format, as discovery reads them.
    public typealias Element = ScanChannel

    /// The byte offset of each element within a scan, in the order the elements were given.
    public let offsets: [Int]
    /// The size of one scan in bytes.
    public let scanBytes: Int

    /// Lays out the given elements (in any order; the scan index decides).
    public init(_ elements: [Element]) {
        let order = elements.indices.sorted { elements[$0].index < elements[$1].index }
        var offsets = [Int](repeating: 0, count: elements.count)
        var bytes = 0
        var largest = 1
        for i in order {
            let length = elements[i].format.storageBytes
            bytes = align(bytes, to: length)
            offsets[i] = bytes
            bytes += length
            largest = max(largest, length)
        }
        self.offsets = offsets
        self.scanBytes = align(bytes, to: largest)
    }
}

/// Rounds `value` up to a multiple of `alignment` (the kernel's ALIGN, for any positive alignment).
private func align(_ value: Int, to alignment: Int) -> Int {
    guard alignment > 1 else { return value }
    return (value + alignment - 1) / alignment * alignment
}
