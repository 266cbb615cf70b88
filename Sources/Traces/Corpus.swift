/// Finds trace files: every `*.csv` in a folder (sorted by name), or the files given.
public enum Corpus {
    /// Expands folders to the `.csv` files inside them; files are kept as given.
    public static func traceFiles(_ arguments: [String]) throws(TraceError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            let kind = TraceFile.kind(of: argument)
            guard kind.exists else { throw TraceError(.unreadable, path: argument, "no such file or folder") }
            if kind.isFolder {
                let names = try TraceFile.names(inFolder: argument)
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
