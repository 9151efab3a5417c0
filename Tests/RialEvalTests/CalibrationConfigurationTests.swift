import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// The `calibration` and `provenance` sections of a configuration file.
@Suite struct CalibrationConfigurationTests {
    func message(_ text: String) -> String? {
        do {
            _ = try ConfigurationFile.parse(text, path: "c.yaml")
            return nil
        } catch { return error.description }
    }

    static let tuned = """
        calibration:
          moire/1: {kind: platt, a: -6.5, b: 3.25}
          depth/2:
            kind: isotonic
            x: [0, 0.5, 1]
            y: [0.1, 0.4, 0.9]
        provenance:
          seed: "7"
          data: "sha256:0123abcd"
        """

    @Test func calibrationAndProvenanceAreRead() throws {
        let c = try ConfigurationFile.parse(Self.tuned, path: "tuned.yaml")
        #expect(c.calibration["moire/1"] == .platt(a: -6.5, b: 3.25))
        #expect(c.calibration["depth/2"] == .isotonic(x: [0, 0.5, 1], y: [0.1, 0.4, 0.9]))
        #expect(c.provenance == ["seed": "7", "data": "sha256:0123abcd"])
        #expect(PipelineConfiguration.standard.calibration.isEmpty)
        #expect(PipelineConfiguration.standard.provenance == nil)
    }

    @Test func configPrintWritesThemAndReadsBack() throws {
        let c = try ConfigurationFile.parse(Self.tuned, path: "tuned.yaml")
        let yaml = ConfigurationPrinter.yaml(c)
        #expect(yaml.contains("calibration:"))
        #expect(yaml.contains("provenance:"))
        #expect(yaml.contains("\"sha256:0123abcd\""))
        #expect(try ConfigurationFile.parse(yaml, path: "printed.yaml") == c)
    }

    @Test func badValuesNameTheKey() {
        #expect(
            message("calibration: {moire/1: {kind: isotonic, x: [0, 0.2, 0.6, 0.5], y: [0, 0.1, 0.2, 0.3]}}")
                == "c.yaml: key 'calibration.moire/1.x[3]': must be greater than x[2] (0.6), got 0.5")
        #expect(
            message("calibration: {moire/1: {kind: platt, a: 1e400, b: 0}}")?.contains("calibration.moire/1") == true)
        #expect(
            message("calibration: {moire/9: {kind: platt, a: -1, b: 0}}")?.hasPrefix(
                "c.yaml: key 'calibration.moire/9': no such method; known: depth/1") == true)
        #expect(message("calibration: {moire: {kind: platt, a: -1, b: 0}}")?.contains("calibration.moire'") == true)
        #expect(
            message("calibration: {moire/1: {kind: sigmoid, a: -1, b: 0}}")?.contains("calibration.moire/1.kind")
                == true)
        #expect(
            message("calibration: {moire/1: {kind: platt, a: -1, bb: 0}}")?.contains("calibration.moire/1.bb") == true)
        #expect(message("calibration: {moire/1: {kind: platt, a: -1}}")?.contains("calibration.moire/1.b") == true)
        #expect(message("provenance: {seed: 7}")?.contains("provenance.seed") == true)
        #expect(message("provenance: ~")?.contains("provenance") == true)
    }

    /// A results.json configuration written before `calibration` existed still decodes.
    @Test func configurationsWithoutTheSectionsStillDecode() throws {
        let tree = ConfigurationSchema.tree(of: PipelineConfiguration.standard)
        var object = try #require(tree.objectValue)
        object["calibration"] = nil
        let decoded = try JSONDecoder().decode(
            PipelineConfiguration.self, from: JSONValue.object(object).serializedData())
        #expect(decoded == .standard)
    }
}
