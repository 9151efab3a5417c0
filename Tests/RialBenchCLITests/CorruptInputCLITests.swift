import Foundation
import RialMedia
import Testing

/// Issue 17, items 3 and 4, through the binary: `analyze` refuses a damaged JPEG and a
/// depth map of the wrong shape with exit 65 and one line naming the file;
/// `--accept-jpeg-warnings` evaluates the JPEG and flags it; `inspect` reports depth
/// values outside a sensor's range.
@Suite struct CorruptInputCLITests {
    static let image = Fixtures.real("promptda/image.jpg")

    /// The PromptDA photo with 64 junk bytes before its EOI marker: libjpeg decodes it
    /// whole and warns "Corrupt JPEG data: N extraneous bytes before marker 0xd9".
    static func junkBeforeEOI(in folder: URL) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: image))
        #expect(bytes.suffix(2) == Data([0xFF, 0xD9]))
        bytes.insert(contentsOf: [UInt8](repeating: 0x5A, count: 64), at: bytes.endIndex - 2)
        let path = folder.appendingPathComponent("junk.jpg").path
        try bytes.write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func analyzeRefusesAJPEGWithWarningsUnlessAsked() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try Self.junkBeforeEOI(in: folder)
        let refused = try CLIRunner.run(["analyze", path])
        #expect(refused.status == 65)
        // libjpeg counts the junk after the entropy data's last padding: "60 extraneous bytes".
        #expect(refused.stderr.hasPrefix("rial-bench: error: \(path): corrupt JPEG: Corrupt JPEG data: "))
        #expect(
            refused.stderr.hasSuffix(
                " extraneous bytes before marker 0xd9 (libjpeg decoded damaged data; --accept-jpeg-warnings "
                    + "evaluates it flagged)\n"))
        #expect(refused.stderr.filter { $0 == "\n" }.count == 1)
        #expect(refused.stdout.isEmpty)

        let flagged = try CLIRunner.run(["analyze", path, "--accept-jpeg-warnings"])
        #expect(flagged.status == 0, "\(flagged.stderr)")
        #expect(flagged.stdout.contains("FLAGGED: decoded from damaged JPEG data: Corrupt JPEG data: "))
        #expect(flagged.stderr.contains("\(path): JPEG decoded with damage: Corrupt JPEG data"))
    }

    @Test(arguments: [(192, 256), (10, 10), (1, 49152)])
    func analyzeRefusesDepthOfTheWrongShape(_ width: Int, _ height: Int) throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let depth = folder.appendingPathComponent("d.f32").path
        var bytes = Data()
        for _ in 0..<(width * height) {
            withUnsafeBytes(of: Float(1.5).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }
        try bytes.write(to: URL(fileURLWithPath: depth))
        let outcome = try CLIRunner.run([
            "analyze", Self.image, "--depth", depth, "--depth-format", "f32le", "--depth-width", "\(width)",
            "--depth-height", "\(height)",
        ])
        #expect(outcome.status == 65)
        #expect(outcome.stderr.hasPrefix("rial-bench: error: \(depth): depth map is \(width)x\(height) "))
        #expect(outcome.stderr.contains("is 1920x1440"))
        #expect(outcome.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func inspectSaysDepthValuesAreOutOfRange() throws {
        let folder = try Fixtures.makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let depth = folder.appendingPathComponent("d.f32").path
        let values: [Float] = [3e38, 1e-42, 2, 2]
        var bytes = Data()
        for v in values { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
        try bytes.write(to: URL(fileURLWithPath: depth))
        let outcome = try CLIRunner.run([
            "inspect", depth, "--depth-format", "f32le", "--depth-width", "2", "--depth-height", "2", "--json",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let object = try JSONValue.parse(Data(outcome.stdout.utf8))
        #expect(object["out_of_range_count"]?.numberValue == 2)
        #expect(object["valid_fraction"]?.numberValue == 0.5)
        #expect(
            outcome.stderr
                == "rial-bench: warning: \(depth): 2 of 4 depth values are outside a sensor's range "
                + "(0.001...1000.0 m) and count as invalid\n")
    }
}
