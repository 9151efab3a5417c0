import Foundation
import RialMedia
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `gate --junit FILE --markdown FILE` writes both reports when the gate fails closed
/// (exit 4 or 65), so a CI system shows the error instead of nothing: a JUnit file with
/// one test case in error carrying the message, a Markdown file with the message; the
/// folders are created as for a passing gate, and the exit status stays as specified.
@Suite struct GateErrorReportCLITests {
    static let baseline = Fixtures.packageRoot.appendingPathComponent("reports/baseline.json").path
    static let policy = Fixtures.packageRoot.appendingPathComponent("reports/gate-policy.yaml").path

    /// The `message` of the JUnit document's `<error>` and its count of test cases, or nil
    /// when it does not parse.
    final class JUnitError: NSObject, XMLParserDelegate {
        var message: String?
        var testcases = 0
        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            if elementName == "testcase" { testcases += 1 }
            if elementName == "error" { message = attributeDict["message"] }
        }

        static func parse(_ path: String) -> JUnitError? {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            let delegate = JUnitError()
            let parser = XMLParser(data: data)
            parser.delegate = delegate
            return parser.parse() ? delegate : nil
        }
    }

    /// A broken input, the exit status the spec gives it and a fragment of its message.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var status: Int32
        var message: String
        /// Writes the broken files into `folder`; returns the gate's arguments.
        var arguments: @Sendable (_ folder: URL) throws -> [String]
        var description: String { name }
    }

    static func baselineTree() throws -> JSONObject {
        try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: baseline))).objectValue!
    }

    static func write(_ tree: JSONObject, _ folder: URL, _ file: String = "broken.json") throws -> String {
        let path = folder.appendingPathComponent(file).path
        try JSONValue.object(tree).serializedData().write(to: URL(fileURLWithPath: path))
        return path
    }

    static let cases: [Case] = [
        Case(name: "missing baseline", status: 4, message: "baseline missing") { folder in
            ["--baseline", folder.appendingPathComponent("none.json").path, "--current", baseline]
        },
        Case(name: "missing baseline, hostile path", status: 4, message: "baseline missing") { folder in
            ["--baseline", folder.appendingPathComponent("a<b>&\"c\u{1}\n|*.json").path, "--current", baseline]
        },
        Case(name: "baseline not JSON", status: 65, message: "not JSON") { folder in
            let path = folder.appendingPathComponent("garbage.json").path
            try Data([0xFF, 0x00, 0x3C, 0x26]).write(to: URL(fileURLWithPath: path))
            return ["--baseline", path, "--current", baseline]
        },
        Case(name: "baseline is a folder", status: 65, message: "cannot be read") { folder in
            ["--baseline", folder.path, "--current", baseline]
        },
        Case(name: "wrong schema", status: 65, message: "is not rial-bench-results/1") { folder in
            var tree = try baselineTree()
            tree["schema"] = "rial-bench-results/<9>"
            return ["--baseline", baseline, "--current", try write(tree, folder)]
        },
        Case(name: "NaN metric", status: 65, message: "metrics.aggregate.auc is undefined") { folder in
            var tree = try baselineTree()
            var metrics = tree["metrics"]!.objectValue!, aggregate = metrics["aggregate"]!.objectValue!
            aggregate["auc"] = .null
            metrics["aggregate"] = .object(aggregate)
            tree["metrics"] = .object(metrics)
            return ["--baseline", baseline, "--current", try write(tree, folder), "--policy", policy]
        },
        Case(name: "unknown metric", status: 65, message: "aucc") { folder in
            let path = folder.appendingPathComponent("policy.yaml").path
            try Data("accuracy: [{metric: aucc, polarity: higher_is_better}]\n".utf8)
                .write(to: URL(fileURLWithPath: path))
            return ["--baseline", baseline, "--current", baseline, "--policy", path]
        },
        Case(name: "unknown policy key", status: 65, message: "absolute_tolerence") { folder in
            let path = folder.appendingPathComponent("policy.yaml").path
            try Data("accuracy: [{metric: auc, polarity: higher_is_better, absolute_tolerence: 0.1}]\n".utf8)
                .write(to: URL(fileURLWithPath: path))
            return ["--baseline", baseline, "--current", baseline, "--policy", path]
        },
        Case(name: "empty metrics", status: 65, message: "`metrics` is empty") { folder in
            var tree = try baselineTree()
            tree["metrics"] = .object([:])
            return ["--baseline", try write(tree, folder), "--current", baseline]
        },
    ]

    @Test(arguments: cases) func gateWritesBothReportsOnError(_ fault: Case) throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-gate-error")
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("new/junit/gate.xml").path
        let markdown = folder.appendingPathComponent("other/md/gate.md").path
        let outcome = try CLIRunner.run(
            ["gate"] + fault.arguments(folder) + ["--junit", junit, "--markdown", markdown], timeout: .seconds(120))
        #expect(outcome.status == fault.status, "\(outcome.stdout)\(outcome.stderr)")
        #expect(outcome.stderr.contains(fault.message), "\(outcome.stderr)")

        let parsed = try #require(JUnitError.parse(junit), "\(fault): no JUnit file, or it does not parse")
        #expect(parsed.testcases == 1)
        let message = try #require(parsed.message, "\(fault): no <error> in the JUnit file")
        #expect(message.contains(fault.message), "\(message)")
        let text = try String(contentsOfFile: markdown, encoding: .utf8)
        #expect(text.hasPrefix("## rial-bench gate: ERROR"), "\(text)")
        #expect(!text.contains("<b>") && !text.contains("\u{1}"), "\(text)")
    }

    @Test func anErrorReportThatCannotBeWrittenAddsItsLine() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-cli-gate-error-blocked")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("plain-file").path
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try CLIRunner.run([
            "gate", "--baseline", folder.appendingPathComponent("none.json").path, "--current", Self.baseline,
            "--junit", "\(file)/sub/gate.xml",
        ])
        #expect(outcome.status == 4, "\(outcome.stderr)")
        let lines = outcome.stderr.split(separator: "\n")
        #expect(lines.count == 2, "\(outcome.stderr)")
        #expect(lines.first?.contains("baseline missing") == true)
        #expect(lines.last?.contains("is a file, not a folder") == true)
    }
}
