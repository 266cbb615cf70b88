extension ShakedSettings {
    /// Reads the configuration: `configFile` alone when given (`--config FILE`), else
    /// `<etcDirectory>/shaked.conf` (the defaults when it does not exist) and then every
    /// `<etcDirectory>/shaked.conf.d/*.conf` in lexical order, each later file overriding single keys.
    ///
    /// - Throws: ``ConfigurationFileError`` with every problem in every file: an unreadable file, a line
    ///   that is not systemd's syntax (an old TOML file is told how to write it now), unknown sections
    ///   and keys (with a suggestion), wrong kinds of value, values out of range, malformed names, a bad
    ///   mount matrix. Whether user and group names exist is not checked here
    ///   (see ``AccessPolicy/resolved()``): a group may appear after the file is written.
    public static func load(configFile: String?, etcDirectory: String = defaultEtcDirectory)
        throws(ConfigurationFileError) -> ShakedSettings
    {
        try check(configFile: configFile, etcDirectory: etcDirectory).validSettings()
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
        return layers.finish(files: files, lastFile: files.last ?? configFile ?? etcDirectory)
    }

    /// Settings from a configuration text over the defaults, as if it were the only file; `file` names it in problems.
    public static func parse(_ text: String, file: String = "<text>") throws(ConfigurationFileError) -> ShakedSettings {
        var layers = Layers()
        layers.apply(text, file: file)
        return try layers.finish(files: [file], lastFile: file).validSettings()
    }
}

/// Files applied one over another, with the problems found and where each setting came from.
struct Layers {
    var settings = ShakedSettings()
    var problems: [ConfigurationProblem] = []
    /// The file and line that last set each key (`Detector.StrokeThreshold`).
    var sources: [String: (file: String, line: Int?)] = [:]

    /// Applies one file's text over the settings so far.
    mutating func apply(_ text: String, file: String) {
        let syntax = ConfigurationSyntax(text)
        for (line, message) in syntax.malformed {
            problems.append(ConfigurationProblem(.syntax, file: file, line: line, message))
        }
        let schema = SettingKey.all
        for header in syntax.headers where !SettingKey.tables.contains(header.name) {
            problems.append(unknownSection(header, file: file))
        }
        for entry in syntax.assignments {
            guard let table = entry.section else {
                problems.append(outsideSections(entry, file: file, schema))
                continue
            }
            guard SettingKey.tables.contains(table) else { continue }  // reported with its header
            guard let setting = schema.first(where: { $0.table == table && $0.name == entry.key }) else {
                problems.append(unknownKey(entry, file: file, schema))
                continue
            }
            if let first = entry.value.first, "\"'[".contains(first) {
                problems.append(
                    ConfigurationProblem(
                        .syntax, file: file, line: entry.line, key: setting.dotted,
                        "values are written bare, without quotes or brackets (names separated by spaces), "
                            + "as in \(setting.name)=\(setting.render(ShakedSettings()))"))
                continue
            }
            do throws(SettingKey.Failure) {
                try setting.read(entry.value, &settings)
                sources[setting.dotted] = (file, entry.line)
            } catch {
                problems.append(
                    ConfigurationProblem(error.code, file: file, line: entry.line, key: setting.dotted, error.message))
            }
        }
    }

    /// The check once every file is applied: the detector's tunables checked together, and the problems
    /// ordered by file (in the order given; others first) and then by line.
    mutating func finish(files: [String], lastFile: String) -> ConfigurationCheck {
        checkDetector(lastFile: lastFile)
        let order = Dictionary(files.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let sorted = problems.enumerated().sorted { a, b in
            let fileA = order[a.element.file] ?? -1
            let fileB = order[b.element.file] ?? -1
            if fileA != fileB { return fileA < fileB }
            let lineA = a.element.line ?? 0
            let lineB = b.element.line ?? 0
            return lineA != lineB ? lineA < lineB : a.offset < b.offset
        }
        return ConfigurationCheck(files: files, problems: sorted.map(\.element), settings: settings)
    }

    /// Checks the detector's tunables together; a problem is reported at the file and line that set the
    /// key most to blame.
    private mutating func checkDetector(lastFile: String) {
        for (keys, message) in settings.detector.problems() {
            let blamed = keys.first { sources["Detector.\($0)"] != nil } ?? keys[0]
            let source = sources["Detector.\(blamed)"]
            problems.append(
                ConfigurationProblem(
                    .outOfRange, file: source?.file ?? lastFile, line: source?.line, key: "Detector.\(blamed)", message)
            )
        }
    }

    /// What the TOML format of earlier versions called a setting: `stroke-threshold` for `StrokeThreshold`.
    static func oldName(_ name: String) -> String {
        var out = ""
        for character in name {
            if character.isUppercase, !out.isEmpty { out.append("-") }
            out += character.lowercased()
        }
        return out
    }

    /// The format earlier versions read, named in the problems an old file gets, with the way to write it now.
    static let formatChange =
        "shaked reads systemd's format now, not TOML: [Section] headers with Key=value settings, values bare "
        + "(see shaked.conf(5))"

    private func unknownSection(_ header: (name: String, line: Int), file: String) -> ConfigurationProblem {
        let tables = SettingKey.tables.map { "[\($0)]" }.joined(separator: ", ")
        if let table = SettingKey.tables.first(where: { $0.lowercased() == header.name.lowercased() }) {
            return ConfigurationProblem(
                .syntax, file: file, line: header.line, key: header.name,
                "\(Self.formatChange); write this section as [\(table)] and its settings as "
                    + "\(SettingKey.all.first { $0.table == table }!.name)=...")
        }
        var message = "is not a section shaked knows"
        if let guess = Suggestion.closest(to: header.name, among: SettingKey.tables) {
            message += "; did you mean [\(guess)]?"
        }
        return ConfigurationProblem(
            .unknownTable, file: file, line: header.line, key: header.name, message + " The sections are \(tables).")
    }

    private func unknownKey(_ entry: ConfigurationSyntax.Assignment, file: String, _ schema: [SettingKey])
        -> ConfigurationProblem
    {
        let table = entry.section ?? ""
        let name = entry.key
        let own = schema.filter { $0.table == table }
        var message = "is not a setting of [\(table)]"
        if table == "Detector", let why = ShakedSettings.Detector.retiredKeys[name] {
            return ConfigurationProblem(
                .unknownKey, file: file, line: entry.line, key: "\(table).\(name)",
                "is no longer a setting (\(why)); delete this line")
        }
        if let old = own.first(where: { Self.oldName($0.name) == name.lowercased() }) {
            return ConfigurationProblem(
                .syntax, file: file, line: entry.line, key: "\(table).\(name)",
                "\(Self.formatChange); write it as \(old.name)=\(old.render(ShakedSettings()))")
        } else if let guess = Suggestion.closest(to: name, among: own.map(\.name)) {
            message += "; did you mean \(guess)?"
        } else if let home = schema.first(where: { $0.name == name }) {
            message += "; it belongs in [\(home.table)]"
        } else {
            message += "; its settings are " + own.map(\.name).joined(separator: ", ")
        }
        return ConfigurationProblem(.unknownKey, file: file, line: entry.line, key: "\(table).\(name)", message)
    }

    private func outsideSections(_ entry: ConfigurationSyntax.Assignment, file: String, _ schema: [SettingKey])
        -> ConfigurationProblem
    {
        let name = entry.key
        var message = "is outside any section; settings go below a section header such as [Prompt]"
        if let home = schema.first(where: { $0.name == name || Self.oldName($0.name) == name.lowercased() }) {
            message += "; did you mean \(home.name) in [\(home.table)]?"
        } else if let guess = Suggestion.closest(to: name, among: schema.map(\.name)),
            let home = schema.first(where: { $0.name == guess })
        {
            message += "; did you mean \(guess) in [\(home.table)]?"
        }
        return ConfigurationProblem(.unknownKey, file: file, line: entry.line, key: name, message)
    }
}
/// "Did you mean ...?": the known name closest to a misspelt one.
enum Suggestion {
    /// The candidate with the smallest edit distance to `word`, if it is close enough to be a likely typo:
    /// at most a third of the word's length (and at least 2) edits, letter case aside.
    static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let normalized = word.lowercased()
        let limit = max(2, normalized.count / 3)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(normalized, candidate.lowercased())
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
}
