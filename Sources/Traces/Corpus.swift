import Foundation

/// Finds trace files: every `*.csv` in a folder (sorted by name), or the files given.
public enum Corpus {
    /// Expands folders to the `.csv` files inside them; files are kept as given.
    public static func traceFiles(_ arguments: [String]) throws(TraceError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw TraceError(.unreadable, path: argument, "no such file or folder")
            }
            if isDirectory.boolValue {
                let names: [String]
                do { names = try FileManager.default.contentsOfDirectory(atPath: argument) } catch {
                    throw TraceError(
                        .unreadable, path: argument, "cannot list the folder: \(error.localizedDescription)")
                }
                let base = argument.hasSuffix("/") ? argument : argument + "/"
                let traces = names.filter { $0.hasSuffix(".csv") }.sorted().map { base + $0 }
                if traces.isEmpty { throw TraceError(.unreadable, path: argument, "the folder holds no .csv trace") }
                files += traces
            } else {
                files.append(argument)
            }
        }
        return files
    }
}
