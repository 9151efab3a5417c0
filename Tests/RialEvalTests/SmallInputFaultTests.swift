import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialTestSupport
import Testing

@testable import RialEval

/// Issue 17, item 7: hostile text in CSV and Markdown reports, control characters in
/// messages, empty manifests and `dataset fetch` through symbolic links.
@Suite struct SmallInputFaultTests {
    /// Text a hostile manifest can put in an id, a dataset name, a group, a reason or a path.
    static let hostileText: [String] = [
        "=HYPERLINK(\"http://evil\",\"x\")", "=1+1", "+1+1", "-2+3", "@SUM(A1:A9)", "\tTAB", "\rCR",
        "=cmd|' /C calc'!A0", "=1,2", "-0.5", "plain-id", "a|b", "a\\|b", "`code`", "``", "**bold**",
        "_under_", "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[link](http://evil)",
        "![img](http://evil/x.png)", "&lt;entity&gt;", "~~strike~~", "$x^2$", "line\nbreak", "cr\rlf\n",
        "esc\u{1B}[2Jclear", "nul\u{0}byte", "bell\u{7}", "del\u{7F}", "csi\u{9B}31m", "ls\u{2028}ps\u{2029}",
        "bidi\u{202E}txt.exe", "# heading", "> quote", "| a | b |", "back\\slash", "trailing\\",
    ]

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains {
            $0.properties.generalCategory == .control || (0x2028...0x2029).contains($0.value)
                || (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value)
        }
    }

    // MARK: CSV formula injection

    /// RFC 4180 rows of `text`.
    static func parseCSV(_ text: String) -> [[String]] {
        var rows: [[String]] = [], row: [String] = [], field = "", quoted = false, atStart = true
        var chars = Array(text.unicodeScalars)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        field.unicodeScalars.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    field.unicodeScalars.append(c)
                }
            } else if c == "\"" && atStart {
                quoted = true
            } else if c == "," {
                row.append(field)
                field = ""
                atStart = true
                continue
            } else if c == "\n" {
                row.append(field)
                rows.append(row)
                row = []
                field = ""
                atStart = true
                continue
            } else {
                field.unicodeScalars.append(c)
            }
            atStart = false
        }
        if !field.isEmpty || !row.isEmpty { rows.append(row + [field]) }
        return rows
    }

    static let formulaStarts: Set<Character> = ["=", "+", "-", "@", "\t", "\r"]

    static func csvRecords(hostile: String) -> [SampleRecord] {
        var records: [SampleRecord] = (0..<6).map { (i: Int) -> SampleRecord in
            let score: Double = i == 0 ? -0.5 : Double(i) / 10
            let label = i < 3 ? "real_scene" : "lcd_screen"
            return HTMLReportFixtures.record(
                id: "s\(i)", index: i, label: label, data: "real", scores: ["depth/2": score],
                aggregate: Double(i) / 6)
        }
        records[1].id = hostile
        records[1].dataset = hostile
        records[1].group = hostile
        return records
    }

    @Test(arguments: hostileText) func csvTextCellsCannotStartAFormula(_ hostile: String) throws {
        let records = Self.csvRecords(hostile: hostile)
        let results = HTMLReportFixtures.results(records)
        let scores = Self.parseCSV(CSVExport.scores(results: results, records: records))
        #expect(scores.count == 7, "one row per record and a header")
        guard scores.count == 7 else { return }
        let header = scores[0]
        let row = scores[2]
        #expect(row.count == header.count)
        let expected = Self.formulaStarts.contains(hostile.first ?? " ") ? "'" + hostile : hostile
        for column in ["id", "dataset", "group"] {
            guard let i = header.firstIndex(of: column), i < row.count else {
                Issue.record("no column \(column)")
                continue
            }
            #expect(row[i] == expected, "\(column)")
        }
        // Numbers stay numbers: the score -0.5 of s0 and the thresholds in roc.csv.
        let scoreColumn = try #require(header.firstIndex(of: "depth/2"))
        #expect(scores[1][scoreColumn] == "-0.5")
        let roc = Self.parseCSV(CSVExport.roc(results: results, records: records))
        #expect(roc.contains { $0 == ["depth/2", "-0.5", "1", "1"] })
        for table in [scores, roc, Self.parseCSV(CSVExport.metrics(results))] {
            for cells in table.dropFirst() {
                for cell in cells where Double(cell) == nil && cell != "nan" && cell != "-inf" {
                    #expect(!Self.formulaStarts.contains(cell.first ?? " "), "cell \(cell.debugDescription)")
                }
            }
        }
    }

    // MARK: Markdown injection

    /// Markdown characters that act inline (emphasis, code, links, HTML, entities, tables, math).
    static let markdownActive: Set<Character> = ["\\", "`", "*", "_", "[", "]", "<", ">", "|", "&", "~", "$"]

    /// The cells of a GFM table row: split at pipes not escaped by a backslash.
    static func tableCells(_ line: String) -> [String] {
        var cells: [String] = [], cell = "", escaped = false
        for c in line {
            if escaped {
                cell.append(c)
                escaped = false
            } else if c == "\\" {
                cell.append(c)
                escaped = true
            } else if c == "|" {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(c)
            }
        }
        cells.append(cell)
        return Array(cells.dropFirst().dropLast()).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// The literal text a cell renders as, or nil when it holds an unescaped Markdown
    /// character (that would start markup) or a control character.
    static func literal(_ cell: String) -> String? {
        var out = "", chars = Array(cell)[...]
        // GFM first turns `\|` into `|` inside a table cell, then parses the inline content.
        var unpiped: [Character] = []
        while let c = chars.popFirst() {
            if c == "\\", chars.first == "|" {
                unpiped.append(chars.removeFirst())
            } else {
                unpiped.append(c)
            }
        }
        var rest = unpiped[...]
        while let c = rest.popFirst() {
            if c == "\\", let next = rest.first, next.isASCII, next.isPunctuation || next.isSymbol {
                out.append(rest.removeFirst())
            } else if markdownActive.contains(c) && c != "|" {
                return nil
            } else if hasControl(String(c)) {
                return nil
            } else {
                out.append(c)
            }
        }
        return out
    }

    static func report(hostile: String) -> (RunResults, String) {
        var records: [SampleRecord] = (0..<6).map { (i: Int) -> SampleRecord in
            let label = i < 3 ? "real_scene" : "lcd_screen"
            return HTMLReportFixtures.record(
                id: "s\(i)", index: i, label: label, data: "real", scores: ["depth/2": Double(i) / 10],
                aggregate: Double(i) / 6)
        }
        var failed = HTMLReportFixtures.failed(id: hostile, index: 6, reason: hostile)
        failed.dataset = hostile
        records.append(failed)
        for i in records.indices { records[i].dataset = hostile }
        var results = HTMLReportFixtures.results(records)
        results.datasets[0].name = hostile
        results.profile = hostile
        return (results, MarkdownReport.render(results))
    }

    @Test(arguments: hostileText) func markdownReportShowsUserTextLiterally(_ hostile: String) throws {
        let (_, markdown) = Self.report(hostile: hostile)
        let (_, plain) = Self.report(hostile: "plain")
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.count == plain.split(separator: "\n", omittingEmptySubsequences: false).count, "no new lines")
        #expect(!lines.contains(where: Self.hasControl))

        // The failed samples table: sample | dataset | stage | reason.
        let failedRow = try #require(lines.first { $0.contains(" | load | ") })
        let failedCells = Self.tableCells(failedRow)
        #expect(failedCells.count == 4, "\(failedRow)")
        // The data table: dataset | data | manifest SHA-256 | samples | selected | evaluated | failed.
        let dataRow = try #require(lines.first { $0.contains("| mixed | `abababababababab…` |") })
        let dataCells = Self.tableCells(dataRow)
        #expect(dataCells.count == 7, "\(dataRow)")
        let profileLine = try #require(lines.first { $0.hasPrefix("Profile ") })
        let profileEnd = try #require(profileLine.range(of: ", configuration SHA-256", options: .backwards))
        let profile = String(
            profileLine[profileLine.index(profileLine.startIndex, offsetBy: 8)..<profileEnd.lowerBound])

        let texts: [String?] = [
            failedCells.first, failedCells.dropFirst().first, failedCells.last, dataCells.first, profile,
        ]
        for text in texts {
            let cell: String = try #require(text)
            let shown = Self.literal(cell)
            #expect(shown != nil, "unescaped markup in \(cell.debugDescription)")
            if !Self.hasControl(hostile) { #expect(shown == hostile, "\(cell.debugDescription)") }
        }
    }

    // MARK: Control characters in messages

    /// Golden escapes, written out by hand from the rule in `escapingControlCharacters()`.
    static let controlEscapes: [(String, String)] = [
        ("plain/path to/a.jpg", "plain/path to/a.jpg"), ("a\tb\nc\rd", #"a\tb\nc\rd"#),
        ("\u{1B}[2J", #"\u{1B}[2J"#), ("nul\u{0}", #"nul\u{0}"#), ("\u{7}\u{7F}\u{9B}", #"\u{7}\u{7F}\u{9B}"#),
        ("a\u{2028}b\u{2029}", #"a\u{2028}b\u{2029}"#), ("x\u{202E}y\u{2066}", #"x\u{202E}y\u{2066}"#),
        ("caf\u{E9} \u{1F600} \u{200D}", "caf\u{E9} \u{1F600} \u{200D}"), (#"back\slash"#, #"back\slash"#),
        ("\r\n", #"\r\n"#),
    ]

    @Test func controlEscapesMatchTheRuleAndAreIdempotent() {
        for (text, expected) in Self.controlEscapes {
            #expect(text.escapingControlCharacters() == expected, "\(text.debugDescription)")
            #expect(expected.escapingControlCharacters() == expected)
        }
        for text in Self.hostileText + Self.controlIDs {
            #expect(!Self.hasControl(text.escapingControlCharacters()), "\(text.debugDescription)")
        }
    }

    static let controlIDs: [String] = [
        "esc\u{1B}[2J\u{1B}[31mred", "nul\u{0}id", "new\nline", "cr\rid", "bell\u{7}", "c1\u{9B}2J", "ls\u{2028}x",
        "bidi\u{202E}gpj.exe", "tab\tid", "del\u{7F}",
    ]

    @Test(arguments: controlIDs) func datasetProblemsEscapeControlCharacters(_ hostile: String) throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-ctl")
        defer { EvalFixtures.removeTemporary(folder) }
        let id = JSONValue.string(hostile).serialized()
        let path = JSONValue.string("files/\(hostile).jpg").serialized()
        let manifest =
            #"{"format": "rial-bench-dataset/1", "samples": ["#
            + #"{"id": \#(id), "image": \#(path), "label": "real_scene"},"#
            + #"{"id": \#(id), "image": "b.jpg", "label": \#(id)}]}"#
        let loader = try DatasetLoader(
            data: Data(manifest.utf8), manifestPath: "m\u{1B}[0m.json", baseDirectory: folder)
        let report = loader.validate()
        #expect(report.problems.count >= 3)
        for problem in report.problems {
            #expect(!Self.hasControl(problem.description), "\(problem.description.debugDescription)")
        }
        for entry in loader.entries {
            if case .failure(let failure) = entry.result {
                #expect(!Self.hasControl(failure.reason), "\(failure.reason.debugDescription)")
            }
        }
        let media = MediaError(.notFound, source: "/tmp/\(hostile).jpg", "no such file")
        #expect(!Self.hasControl(media.description), "\(media.description.debugDescription)")
        let fetch = DatasetFetcher(loader: loader, mirror: nil, downloader: nil).fetch()
        for file in fetch.files {
            #expect(!Self.hasControl(file.description), "\(file.description.debugDescription)")
        }
    }

    // MARK: Empty manifests

    static let emptyManifests: [String] = [
        #"{"format": "rial-bench-dataset/1", "samples": []}"#,
        #"{"format": "rial-bench-dataset/1", "name": "x", "samples": [ ]}"#,
        #"{"format": "rial-bench-dataset/1"}"#,
    ]

    @Test(arguments: emptyManifests) func emptyManifestIsAnErrorInValidateAndRun(_ text: String) throws {
        let folder = try EvalFixtures.makeTemporaryFolder("rial-empty")
        defer { EvalFixtures.removeTemporary(folder) }
        try EvalFixtures.write(Data(text.utf8), to: "manifest.json", in: folder)
        let path = folder.appendingPathComponent("manifest.json").path
        let report = try DatasetLoader(contentsOf: path).validate()
        #expect(!report.isValid)
        #expect(report.problems.contains { $0.description.contains("samples") })

        let plan = RunPlan(
            manifests: [path], configuration: .standard, jobs: 1, limit: nil, split: nil, seed: 1, resamples: 0,
            shard: nil, buildConfiguration: "debug")
        let runner = try DatasetRunner(plan: plan)
        #expect(throws: RunError.self) {
            _ = try runner.run(samplesPath: folder.appendingPathComponent("samples.jsonl").path)
        }
    }

    // MARK: dataset fetch and symbolic links out of the dataset folder

    enum LinkSetup: String, CaseIterable {
        /// `files` is a link to a folder outside the dataset.
        case cacheFolder
        /// `files/x` is a link to a folder outside the dataset.
        case subfolder
        /// `files/x/a.jpg.part` is a link to a file outside (the download's temporary file).
        case partialFile
        /// `files/x/a.jpg` is a link to an outside file with the wrong content.
        case staleTarget
    }

    @Test(arguments: LinkSetup.allCases) func fetchNeverWritesThroughALinkOutOfTheDatasetFolder(_ setup: LinkSetup)
        throws
    {
        let root = try EvalFixtures.makeTemporaryFolder("rial-fetch-link")
        defer { EvalFixtures.removeTemporary(root) }
        let outside = try EvalFixtures.makeTemporaryFolder("rial-outside")
        defer { EvalFixtures.removeTemporary(outside) }
        let fm = FileManager.default
        let mirror = root.appendingPathComponent("mirror")
        let content = Data("mirror file".utf8)
        try EvalFixtures.write(content, to: "x/a.jpg", in: mirror)
        try EvalFixtures.write(content, to: "x/b.jpg", in: mirror)
        let dataset = root.appendingPathComponent("dataset")
        let victim = outside.appendingPathComponent("victim.jpg")
        try Data("precious".utf8).write(to: victim)
        try fm.createDirectory(at: dataset, withIntermediateDirectories: true)
        switch setup {
        case .cacheFolder:
            try fm.createSymbolicLink(
                atPath: dataset.appendingPathComponent("files").path, withDestinationPath: outside.path)
        case .subfolder:
            try fm.createDirectory(at: dataset.appendingPathComponent("files"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(
                atPath: dataset.appendingPathComponent("files/x").path, withDestinationPath: outside.path)
        case .partialFile:
            try fm.createDirectory(at: dataset.appendingPathComponent("files/x"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(
                atPath: dataset.appendingPathComponent("files/x/a.jpg.part").path, withDestinationPath: victim.path)
        case .staleTarget:
            try fm.createDirectory(at: dataset.appendingPathComponent("files/x"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(
                atPath: dataset.appendingPathComponent("files/x/a.jpg").path, withDestinationPath: victim.path)
        }
        let hash = SHA256Digest.hash(content)
        let upstream = Data("upstream".utf8)
        let manifest = """
            {"format": "rial-bench-dataset/1", "samples": [
             {"id": "a", "image": "files/x/a.jpg", "label": "real_scene", "sha256": {"image": "\(SHA256Digest.hash(upstream))"},
              "source": "github:o/r@c0ffee:data/a.jpg"},
             {"id": "b", "image": "files/x/b.jpg", "label": "real_scene", "sha256": {"image": "\(hash)"}}]}
            """
        try EvalFixtures.write(Data(manifest.utf8), to: "manifest.json", in: dataset)
        let before = try Self.snapshot(outside)
        let loader = try DatasetLoader(contentsOf: dataset.appendingPathComponent("manifest.json").path)
        let downloader = FakeDownloader(["https://raw.githubusercontent.com/o/r/c0ffee/data/a.jpg": upstream])
        let report = DatasetFetcher(loader: loader, mirror: mirror, downloader: downloader).fetch()
        #expect(try Self.snapshot(outside) == before, "the folder outside the dataset changed")
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        switch setup {
        case .cacheFolder, .subfolder:
            #expect(report.failedCount == 2)
            for file in report.files {
                guard case .failed(let reason) = file.outcome else { continue }
                #expect(reason.contains("symbolic link"), "\(reason)")
            }
        case .partialFile, .staleTarget:
            // Inside the dataset folder the link itself is replaced, never its target.
            #expect(report.succeeded, "\(report.files.map(\.description))")
        }
    }

    /// Every path under `folder` (links not followed) with its content or link target.
    static func snapshot(_ folder: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let fm = FileManager.default
        for name in try fm.subpathsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            if let target = try? fm.destinationOfSymbolicLink(atPath: path) {
                result[name] = "link " + target
            } else if let data = fm.contents(atPath: path) {
                result[name] = SHA256Digest.hash(data)
            } else {
                result[name] = "folder"
            }
        }
        return result
    }
}
