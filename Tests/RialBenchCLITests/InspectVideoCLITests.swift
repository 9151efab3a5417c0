import Foundation
import Testing

/// `rial-bench inspect` on files that look like MP4 but are not readable videos: one
/// error line naming the file, exit 65, and the JSON failure line with `--json`.
@Suite struct InspectVideoCLITests {
    @Test func aDamagedMP4IsOneClearError() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-bench-cli-video")
        defer { try? FileManager.default.removeItem(at: folder) }
        // An 'ftyp' box (ISO/IEC 14496-12 section 4.3: size, type, major brand, minor
        // version, compatible brands) and then bytes that are no box: the file starts like
        // an MP4 and has no 'moov' index.
        let ftyp = Data([0, 0, 0, 0x18]) + Data("ftypisom".utf8) + Data([0, 0, 2, 0]) + Data("isomiso2".utf8)
        let path = folder.appendingPathComponent("clip.mp4").path
        #expect(FileManager.default.createFile(atPath: path, contents: ftyp + Data(repeating: 0xAB, count: 64)))

        let result = try CLIRunner.run(["inspect", path])
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains(path) && result.stderr.contains("corrupt video"), "\(result.stderr)")

        let json = try CLIRunner.run(["inspect", "--json", path])
        #expect(json.status == 65)
        let object = try #require(
            JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["kind"] as? String == "corrupt")
        #expect(error["source"] as? String == path)
    }
}
