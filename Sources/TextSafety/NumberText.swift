/// A number as people and configuration files write it, without a needless `.0`: `100`, `-1`, `0.5`.
public func formatNumber(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}
