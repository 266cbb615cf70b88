/// TOML's integers and floats, from the text of one token.
enum TOMLNumber {
    /// What a token is as a number.
    enum Outcome: Equatable {
        case value(TOMLValue)
        /// An integer by its form, beyond 64 bits.
        case tooLarge
        case notANumber
    }

    /// Reads `42`, `-17`, `1_000`, `0x1F`, `0o17`, `0b101`, `3.14`, `-1e-3`, `6.0E+2`, `inf`, `-nan`.
    static func parse(_ token: String) -> Outcome {
        switch token {
        case "inf", "+inf": return .value(.float(.infinity))
        case "-inf": return .value(.float(-.infinity))
        case "nan", "+nan", "-nan": return .value(.float(.nan))
        default: break
        }
        let bytes = Array(token.utf8)
        if bytes.count > 2, bytes[0] == UInt8(ascii: "0") {
            let radix: Int? =
                switch bytes[1] {
                case UInt8(ascii: "x"): 16
                case UInt8(ascii: "o"): 8
                case UInt8(ascii: "b"): 2
                default: nil
                }
            if let radix {
                var index = 2
                guard digitRun(bytes, &index, radix: radix), index == bytes.count else { return .notANumber }
                let digits = String(decoding: bytes[2...].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
                return Int(digits, radix: radix).map { .value(.integer($0)) } ?? .tooLarge
            }
        }
        var index = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let wholeStart = index
        guard digitRun(bytes, &index, radix: 10) else { return .notANumber }
        // No leading zeros: 0 alone, or a digit from 1.
        if bytes[wholeStart] == UInt8(ascii: "0") && index - wholeStart > 1 { return .notANumber }
        var isFloat = false
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digitRun(bytes, &index, radix: 10) else { return .notANumber }
            isFloat = true
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digitRun(bytes, &index, radix: 10) else { return .notANumber }
            isFloat = true
        }
        guard index == bytes.count else { return .notANumber }
        let text = String(decoding: bytes.filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        if isFloat { return Double(text).map { .value(.float($0)) } ?? .notANumber }
        return Int(text).map { .value(.integer($0)) } ?? .tooLarge
    }

    /// Digits in `radix`, with single underscores only between two digits; false when none.
    private static func digitRun(_ bytes: [UInt8], _ index: inout Int, radix: Int) -> Bool {
        guard index < bytes.count, let first = TOMLCursor.hexValue(bytes[index]), first < radix else { return false }
        index += 1
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "_") {
                guard index + 1 < bytes.count, let next = TOMLCursor.hexValue(bytes[index + 1]), next < radix else {
                    return false
                }
                index += 2
            } else if let digit = TOMLCursor.hexValue(bytes[index]), digit < radix {
                index += 1
            } else {
                break
            }
        }
        return true
    }
}

/// TOML's dates and times: `1979-05-27`, `07:32:00.5`, `1979-05-27T07:32:00Z`, `1979-05-27 07:32:00-07:00`.
enum TOMLDateTime {
    /// Which kind the token is, or nil when it is none (including impossible fields such as month 13).
    static func kind(of token: String) -> TOMLValue.DateTimeKind? {
        let bytes = Array(token.utf8)
        var index = 0
        if date(bytes, &index) {
            if index == bytes.count { return .date }
            guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[index]) else { return nil }
            index += 1
            guard time(bytes, &index) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
                index += 1
            } else if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
                guard let hours = number(bytes, &index, 2), hours < 24, colon(bytes, &index),
                    let minutes = number(bytes, &index, 2), minutes < 60
                else { return nil }
            }
            return index == bytes.count ? .dateTime : nil
        }
        index = 0
        return time(bytes, &index) && index == bytes.count ? .time : nil
    }

    private static func date(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        guard number(bytes, &index, 4) != nil, dash(bytes, &index),
            let month = number(bytes, &index, 2), (1...12).contains(month), dash(bytes, &index),
            let day = number(bytes, &index, 2), (1...31).contains(day)
        else { return false }
        return true
    }

    private static func time(_ bytes: [UInt8], _ index: inout Int) -> Bool {
        guard let hours = number(bytes, &index, 2), hours < 24, colon(bytes, &index),
            let minutes = number(bytes, &index, 2), minutes < 60, colon(bytes, &index),
            let seconds = number(bytes, &index, 2), seconds <= 60
        else { return false }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                index += 1
            }
            return index > start
        }
        return true
    }

    private static func number(_ bytes: [UInt8], _ index: inout Int, _ digits: Int) -> Int? {
        guard index + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + digits] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += digits
        return value
    }

    private static func dash(_ bytes: [UInt8], _ index: inout Int) -> Bool { separator(bytes, &index, "-") }
    private static func colon(_ bytes: [UInt8], _ index: inout Int) -> Bool { separator(bytes, &index, ":") }

    private static func separator(_ bytes: [UInt8], _ index: inout Int, _ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }
}
