extension Duration {
    /// The duration in seconds, with its fraction: `.milliseconds(1500)` is `1.5`.
    @inlinable
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration for status lines and logs, rounded to tenths of a second: `0.5 s`, `4 s`, `30 s`.
    public var secondsText: String {
        let (whole, attoseconds) = components
        let tenths = Int64((Double(attoseconds) / 1e17).rounded())
        return tenths == 0 ? "\(whole) s" : tenths == 10 ? "\(whole + 1) s" : "\(whole).\(tenths) s"
    }
}
