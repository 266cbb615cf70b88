/// Finds trace files: every `*.csv` in a folder (sorted by name), or the files given.
public enum Corpus {
    /// Expands folders to the `.csv` files inside them; files are kept as given.
    public static func traceFiles(_ arguments: [String]) throws(TraceError) -> [String] {
        var files: [String] = []
        for argument in arguments {
            let kind = TraceFile.kind(of: argument)
            guard kind.exists else { throw TraceError(.unreadable, path: argument, "no such file or folder") }
            if kind.isFolder {
                let traces = try csvFiles(inFolder: argument)
                if traces.isEmpty { throw TraceError(.unreadable, path: argument, "the folder holds no .csv trace") }
                files += traces
            } else {
                files.append(argument)
            }
        }
        return files
    }

    /// The traces of the arguments grouped into sets, each scored on its own row: a folder's own
    /// `.csv` files are one set, and each folder below it that holds `.csv` files is another
    /// (searched to ``maximumDepth`` levels, in name order), so `../shared/traces` gives the
    /// corpus, `other-hands`, `many-hands` and `everyday-ku-har`. Files named on their own form
    /// one set, "files given". A folder with no trace at any level is an error.
    public static func traceSets(_ arguments: [String]) throws(TraceError) -> [TraceSet] {
        var sets: [TraceSet] = []
        var given: [String] = []
        for argument in arguments {
            let kind = TraceFile.kind(of: argument)
            guard kind.exists else { throw TraceError(.unreadable, path: argument, "no such file or folder") }
            guard kind.isFolder else {
                given.append(argument)
                continue
            }
            let found = try setsBelow(argument, name: lastComponent(argument), depth: 0)
            if found.isEmpty {
                throw TraceError(.unreadable, path: argument, "the folder holds no .csv trace, nor do its subfolders")
            }
            sets += found
        }
        if !given.isEmpty { sets.insert(TraceSet(name: "files given", files: given), at: 0) }
        return sets
    }

    /// How many levels of subfolders ``traceSets(_:)`` looks into.
    public static let maximumDepth = 4

    private static func setsBelow(_ folder: String, name: String, depth: Int) throws(TraceError) -> [TraceSet] {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        let names = try TraceFile.names(inFolder: folder).sorted()
        var sets: [TraceSet] = []
        let traces = names.filter { $0.hasSuffix(".csv") }.map { base + $0 }
        if !traces.isEmpty { sets.append(TraceSet(name: name, files: traces)) }
        guard depth < maximumDepth else { return sets }
        for entry in names where !entry.hasPrefix(".") && !entry.hasSuffix(".csv") {
            let path = base + entry
            guard TraceFile.kind(of: path).isFolder else { continue }
            sets += try setsBelow(path, name: name + "/" + entry, depth: depth + 1)
        }
        return sets
    }

    private static func csvFiles(inFolder folder: String) throws(TraceError) -> [String] {
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return try TraceFile.names(inFolder: folder).filter { $0.hasSuffix(".csv") }.sorted().map { base + $0 }
    }

    private static func lastComponent(_ path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.last.map(String.init) ?? path
    }
}

/// Traces scored together on one row: the files of one folder, or the files named on their own.
public struct TraceSet: Sendable, Hashable {
    /// The folder's path below the folder given, starting with that folder's own name
    /// (`traces/many-hands`), or "files given".
    public var name: String
    /// The trace files, in name order.
    public var files: [String]

    /// Creates a set.
    public init(name: String, files: [String]) {
        self.name = name
        self.files = files
    }
}
