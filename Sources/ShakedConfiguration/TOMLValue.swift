/// A value of a TOML document (TOML 1.0), as ``TOMLParser`` reads it.
///
/// Dates and times are kept as written: shaked has no setting that takes one, so they only need
/// to be recognized (and refused with their type named).
enum TOMLValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case float(Double)
    case boolean(Bool)
    /// An offset or local date-time, a local date or a local time, as written.
    case dateTime(String, kind: DateTimeKind)
    case array([TOMLValue])
    case table(TOMLTable)

    /// Which of TOML's four date and time types a ``dateTime(_:kind:)`` is.
    enum DateTimeKind: String, Sendable {
        case dateTime = "date-time"
        case date
        case time
    }

    /// The type's name in problems: "must be a whole number, not a string".
    var type: String {
        switch self {
        case .string: "string"
        case .integer: "integer"
        case .float: "floating-point number"
        case .boolean: "bool"
        case .dateTime(_, let kind): kind.rawValue
        case .array: "array"
        case .table: "table"
        }
    }

    /// The integer, if this is one.
    var int: Int? { if case .integer(let value) = self { value } else { nil } }
    /// The float, if this is one (not an integer: ask ``int`` for that).
    var double: Double? { if case .float(let value) = self { value } else { nil } }
    /// The string, if this is one.
    var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The boolean, if this is one.
    var bool: Bool? { if case .boolean(let value) = self { value } else { nil } }
    /// The elements, if this is an array.
    var array: [TOMLValue]? { if case .array(let value) = self { value } else { nil } }
    /// The table, if this is one.
    var table: TOMLTable? { if case .table(let value) = self { value } else { nil } }
}

/// A TOML table: keys in the order they were first written, each with its value.
struct TOMLTable: Sendable, Equatable, Sequence {
    private(set) var keys: [String] = []
    private var values: [String: TOMLValue] = [:]

    /// The value of a key.
    subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }

    /// Whether the table has no keys.
    var isEmpty: Bool { keys.isEmpty }

    /// The keys and values, in the order the keys were first written.
    func makeIterator() -> some IteratorProtocol<(String, TOMLValue)> {
        keys.lazy.map { ($0, values[$0]!) }.makeIterator()
    }
}

/// Why a text is not valid TOML, and where: 1-based line and column (in characters).
struct TOMLSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    var line: Int
    var column: Int
    var message: String

    var description: String { "\(line):\(column): \(message)" }
}
