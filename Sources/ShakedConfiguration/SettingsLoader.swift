extension ShakedSettings {
    /// Reads the configuration: `configFile` alone when given (`--config FILE`), else
    /// `<etcDirectory>/shaked.conf` (the defaults when it does not exist) and then every
    /// `<etcDirectory>/shaked.conf.d/*.conf` in lexical order, each later file overriding single keys.
    ///
    /// - Throws: ``ConfigurationFileError`` with every problem in every file: an unreadable file, a TOML
    ///   syntax error, unknown tables and keys (with a suggestion), wrong types, values out of range,
    ///   malformed names, a bad mount matrix. Whether user and group names exist is not checked here
    ///   (see ``AccessPolicy/resolved()``): a group may appear after the file is written.
    public static func load(configFile: String?, etcDirectory: String = defaultEtcDirectory)
        throws(ConfigurationFileError) -> ShakedSettings
    {
        let result = check(configFile: configFile, etcDirectory: etcDirectory)
        guard result.isValid else { throw ConfigurationFileError(problems: result.problems) }
        return result.settings
    }

    /// Checks the configuration that ``load(configFile:etcDirectory:)`` would read, for
    /// `shaked --check-config [FILE]`: the files, every problem, and the effective settings.
    public static func check(configFile: String?, etcDirectory: String = defaultEtcDirectory) -> ConfigurationCheck {
        var layers = Layers()
        let files: [String]
        if let configFile {
            files = [configFile]
        } else {
            let chain = ConfigurationFiles.chain(etcDirectory: etcDirectory)
            files = chain.files
            layers.problems += chain.problems
        }
        for file in files {
            switch ConfigurationFiles.read(file) {
            case .success(let text): layers.apply(text, file: file)
            case .failure(let problem): layers.problems.append(problem)
            }
        }
        layers.checkDetector(lastFile: files.last ?? configFile ?? etcDirectory)
        let problems = layers.sortedProblems(fileOrder: files)
        return ConfigurationCheck(files: files, problems: problems, settings: layers.settings)
    }

    /// Settings from a TOML text over the defaults, as if it were the only file; `file` names it in problems.
    public static func parse(_ text: String, file: String = "<text>") throws(ConfigurationFileError) -> ShakedSettings {
        var layers = Layers()
        layers.apply(text, file: file)
        layers.checkDetector(lastFile: file)
        guard layers.problems.isEmpty else {
            throw ConfigurationFileError(problems: layers.sortedProblems(fileOrder: [file]))
        }
        return layers.settings
    }
}

/// Files applied one over another, with the problems found and where each setting came from.
struct Layers {
    var settings = ShakedSettings()
    var problems: [ConfigurationProblem] = []
    /// The file and line that last set each key (`detector.settle-time`).
    var sources: [String: (file: String, line: Int?)] = [:]

    /// Applies one file's text over the settings so far.
    mutating func apply(_ text: String, file: String) {
        let root: TOMLTable
        do {
            root = try TOMLParser.parse(text)
        } catch {
            problems.append(
                ConfigurationProblem(
                    .syntax, file: file, line: error.line, column: error.column,
                    "\(error.message); this is not valid TOML (see https://toml.io)"))
            return
        }
        let locator = KeyLocator(text: text)
        let schema = SettingKey.all
        for (tableName, value) in root {
            guard SettingKey.tables.contains(tableName) else {
                problems.append(unknownTopLevel(tableName, isTable: value.table != nil, file, locator, schema))
                continue
            }
            guard let table = value.table else {
                problems.append(
                    ConfigurationProblem(
                        .wrongType, file: file, line: locator.line(rootKey: tableName), key: tableName,
                        "must be a table, written as a [\(tableName)] header, not a \(value.type)"))
                continue
            }
            for (name, value) in table {
                let line = locator.line(table: tableName, key: name)
                guard let setting = schema.first(where: { $0.table == tableName && $0.name == name }) else {
                    problems.append(unknownKey(name, in: tableName, file: file, line: line, schema))
                    continue
                }
                do throws(SettingKey.Failure) {
                    try setting.read(value, &settings)
                    sources[setting.dotted] = (file, line)
                } catch {
                    problems.append(
                        ConfigurationProblem(error.code, file: file, line: line, key: setting.dotted, error.message))
                }
            }
        }
    }

    /// The problems ordered by file (in the order given; others first) and then by line.
    func sortedProblems(fileOrder files: [String]) -> [ConfigurationProblem] {
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return problems.enumerated().sorted { a, b in
            let fileA = order[a.element.file] ?? -1
            let fileB = order[b.element.file] ?? -1
            if fileA != fileB { return fileA < fileB }
            let lineA = a.element.line ?? 0
            let lineB = b.element.line ?? 0
            return lineA != lineB ? lineA < lineB : a.offset < b.offset
        }.map(\.element)
    }

    /// Checks the detector's tunables together, once every file is applied; a problem is reported at the
    /// file and line that set the key most to blame.
    mutating func checkDetector(lastFile: String) {
        for (keys, message) in settings.detector.problems() {
            let blamed = keys.first { sources["detector.\($0)"] != nil } ?? keys[0]
            let source = sources["detector.\(blamed)"]
            problems.append(
                ConfigurationProblem(
                    .outOfRange, file: source?.file ?? lastFile, line: source?.line, key: "detector.\(blamed)", message)
            )
        }
    }

    private func unknownKey(
        _ name: String, in table: String, file: String, line: Int?, _ schema: [SettingKey]
    ) -> ConfigurationProblem {
        var message = "is not a setting of [\(table)]"
        if let guess = Suggestion.closest(to: name, among: schema.filter { $0.table == table }.map(\.name)) {
            message += "; did you mean \(guess)?"
        } else if let home = schema.first(where: { $0.name == name }) {
            message += "; it belongs in [\(home.table)]"
        } else {
            message += "; its settings are " + schema.filter { $0.table == table }.map(\.name).joined(separator: ", ")
        }
        return ConfigurationProblem(.unknownKey, file: file, line: line, key: "\(table).\(name)", message)
    }

    private func unknownTopLevel(
        _ name: String, isTable: Bool, _ file: String, _ locator: KeyLocator, _ schema: [SettingKey]
    ) -> ConfigurationProblem {
        let tables = SettingKey.tables.map { "[\($0)]" }.joined(separator: ", ")
        if isTable {
            var message = "is not a table shaked knows"
            if let guess = Suggestion.closest(to: name, among: SettingKey.tables) {
                message += "; did you mean [\(guess)]?"
            }
            return ConfigurationProblem(
                .unknownTable, file: file, line: locator.line(table: name), key: name,
                message + " The tables are \(tables).")
        }
        var message = "is outside any table; settings go below a table header such as [prompt]"
        if let home = schema.first(where: { $0.name == name }) {
            message += "; did you mean \(home.name) in [\(home.table)]?"
        } else if let guess = Suggestion.closest(to: name, among: schema.map(\.name)),
            let home = schema.first(where: { $0.name == guess })
        {
            message += "; did you mean \(guess) in [\(home.table)]?"
        }
        return ConfigurationProblem(.unknownKey, file: file, line: locator.line(rootKey: name), key: name, message)
    }
}

/// "Did you mean ...?": the known name closest to a misspelt one.
enum Suggestion {
    /// The candidate with the smallest edit distance to `word`, if it is close enough to be a likely typo:
    /// at most a third of the word's length (and at least 2) edits. `_` and `-` count as the same.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let normalized = normalize(word)
        let limit = max(2, normalized.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(normalized, normalize(candidate))
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// The Levenshtein distance: the fewest insertions, deletions and substitutions turning `a` into `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    private static func normalize(_ name: String) -> String {
        String(name.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}
