/// A matrix in udev's text form, `"x1, y1, z1; x2, y2, z2; x3, y3, z3"` (`ACCEL_MOUNT_MATRIX`, sysfs
/// `mount_matrix`, `MountMatrix=`): rows split at `;`, numbers at `,`, spaces around each number ignored.
///
/// The rows as written, of any count and length, so that each reader can say what is wrong with their
/// shape; nil when a cell is not a number, or the text is longer than nine numbers need.
public func matrixRows(_ text: some StringProtocol) -> [[Double]]? {
    // Nine numbers need no more than a few hundred characters: don't split megabytes.
    guard text.utf8.count <= 512 else { return nil }
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\0" }
    var rows: [[Double]] = []
    for rowText in text.split(separator: ";", omittingEmptySubsequences: false) {
        var row: [Double] = []
        for cell in rowText.split(separator: ",", omittingEmptySubsequences: false) {
            var number = cell.drop(while: isSpace)
            while let last = number.last, isSpace(last) { number.removeLast() }
            guard let value = Double(number) else { return nil }
            row.append(value)
        }
        rows.append(row)
    }
    return rows
}

/// A matrix in udev's text form, `"1, 0, 0; 0, 1, 0; 0, 0, 1"`, the numbers written by ``formatNumber(_:)``.
public func matrixText(_ rows: [[Double]]) -> String {
    rows.map { $0.map(formatNumber).joined(separator: ", ") }.joined(separator: "; ")
}
