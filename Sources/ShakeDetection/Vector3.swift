/// A three-component vector of acceleration, in m/s².
struct Vector3: Hashable, Sendable {
    var x: Double
    var y: Double
    var z: Double

    static let zero = Vector3(x: 0, y: 0, z: 0)

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    init(_ sample: Sample) {
        self.init(x: sample.x, y: sample.y, z: sample.z)
    }

    var length: Double { (x * x + y * y + z * z).squareRoot() }

    func dot(_ other: Vector3) -> Double { x * other.x + y * other.y + z * other.z }

    /// The cosine of the angle between two vectors; 0 when either is zero.
    func cosine(_ other: Vector3) -> Double {
        let lengths = length * other.length
        return lengths > 0 ? dot(other) / lengths : 0
    }

    static func - (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x - rhs.x, y: lhs.y - rhs.y, z: lhs.z - rhs.z)
    }

    static func + (lhs: Vector3, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs.x + rhs.x, y: lhs.y + rhs.y, z: lhs.z + rhs.z)
    }

    static func * (lhs: Double, rhs: Vector3) -> Vector3 {
        Vector3(x: lhs * rhs.x, y: lhs * rhs.y, z: lhs * rhs.z)
    }
}

/// A fixed-capacity ring that keeps the newest `capacity` elements without allocating.
struct Ring<let capacity: Int, Element: Sendable>: Sendable {
    // The head and count first: every sample reads the count, and the storage runs to many cache lines.
    private var head = 0
    private(set) var count = 0
    private var storage: InlineArray<capacity, Element>

    init(filler: Element) {
        storage = InlineArray(repeating: filler)
    }

    var isEmpty: Bool { count == 0 }

    /// The i-th newest element: 0 is the last one appended.
    subscript(back index: Int) -> Element {
        storage[(head - 1 - index + 2 * capacity) % capacity]
    }

    var last: Element? { isEmpty ? nil : self[back: 0] }

    mutating func append(_ element: Element) {
        storage[head] = element
        head = (head + 1) % capacity
        count = Swift.min(count + 1, capacity)
    }

    /// Replaces the newest element; the ring must not be empty.
    mutating func replaceLast(_ element: Element) {
        storage[(head - 1 + capacity) % capacity] = element
    }

    /// Removes the oldest element.
    mutating func dropOldest() {
        count = Swift.max(count - 1, 0)
    }

    mutating func removeAll() {
        head = 0
        count = 0
    }
}
