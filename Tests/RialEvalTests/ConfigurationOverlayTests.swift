import Foundation
import RialDetection
import RialMedia
import Testing

@testable import RialEval

/// `ConfigurationFile.parse` lays the file over the encoded defaults with
/// `ConfigurationSchema.overlayRules`. The expected values and messages are those of the
/// hand-written decoders the overlay replaced (`rial-bench config check` before issue 16).
@Suite struct ConfigurationOverlayTests {
    func parse(_ text: String) throws(ConfigurationFileError) -> PipelineConfiguration {
        try ConfigurationFile.parse(text, path: "c.yaml")
    }

    func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch { return error.description }
    }

    @Test func mapsWrittenInFullReplaceTheDefaults() throws {
        let c = try parse("aggregate_with: {depth: depth/1}\ndecision: {method_thresholds: {depth/1: 0.4}}")
        #expect(c.aggregateWith == [.depth: .depthV1])
        #expect(c.decision.methodThresholds == ["depth/1": 0.4])
        #expect(c.decision.threshold == 0.5)
        #expect(
            message("aggregate_with: null")
                == "c.yaml: key 'aggregate_with': no value (null); write a value, or remove the key to keep the default"
        )
    }

    @Test func profilesMergeByNameAndWeightsByMethod() throws {
        let c = try parse(
            """
            profile: lab
            aggregation:
              profiles:
                ios_pro: {weights: {moire: 0.2}}
                lab: {primary: lidar, weights: {lidar: 1}}
            """)
        var iosPro = AggregationProfile.iosPro
        iosPro.weights[.moire] = 0.2
        #expect(
            c.aggregation.profiles == [
                "ios_pro": iosPro, "ios_standard": .iosStandard, "android": .android,
                "lab": AggregationProfile(primary: .lidar, weights: [.lidar: 1]),
            ])
        #expect(
            message("aggregation: {profiles: null}")
                == "c.yaml: key 'aggregation.profiles': no value (null); write a value, or remove the key to keep the default"
        )
        #expect(try parse("aggregation: {profiles: {}}").aggregation == .reference)
    }

    /// `null` (`~`, a key with nothing after it) is refused where the overlay would keep
    /// the default (issue 17: a written key must not silently mean "the default"); where
    /// it is a value, the decoder says what it expected.
    @Test func nullIsRefusedExceptWhereItIsAValue() throws {
        for text in ["moire/1: {band_low: null}", "depth/2: {intrinsics: null}", "depth/2: {sample_stride: ~}"] {
            #expect(
                message(text)?.hasSuffix(": no value (null); write a value, or remove the key to keep the default")
                    == true, "\(text)")
        }
        #expect(
            message("methods: null")
                == "c.yaml: key 'methods': no value (null); write a value, or remove the key to keep the default")
        #expect(
            message("aggregation: {profiles: {ios_pro: {weights: {moire: null}}}}")
                == "c.yaml: key 'aggregation.profiles.ios_pro.weights.moire': expected a number, got null")
        #expect(
            message("aggregation: {profiles: {ios_pro: null}}")
                == "c.yaml: key 'aggregation.profiles.ios_pro': expected a mapping or a value of type Dictionary<String, Any>, got null"
        )
        #expect(
            message("aggregate_with: {depth: null}")
                == "c.yaml: key 'aggregate_with.depth': no value (null); write a value, or remove the key to keep the default"
        )
        #expect(
            message("decision: {method_thresholds: {depth/1: null}}")
                == "c.yaml: key 'decision.method_thresholds.depth/1': no value (null); write a value, or remove the key to keep the default"
        )
    }

    @Test func valuesWithoutDefaultsAreDecodedAsWritten() {
        #expect(message("depth/2: {intrinsics: {fx: 1}}") == "c.yaml: key 'depth/2.intrinsics.fy' is required")
        #expect(
            message("aggregation: {profiles: {lab: {primary: lidar}}}")
                == "c.yaml: key 'aggregation.profiles.lab.weights': must give at least one method a weight > 0")
        #expect(
            message("aggregation: {profiles: {lab: {weights: {lidar: 1}}}}\nprofile: lab")
                == "c.yaml: key 'aggregation.profiles.lab.primary': is missing; name the primary method (e.g. lidar)")
        #expect(
            message("metadata: {lidar_devices: [null]}")
                == "c.yaml: key 'metadata.lidar_devices[0]': no value (null); write a value, or remove the key to keep the default"
        )
        #expect(
            message("moire/1: 5")
                == "c.yaml: key 'moire/1': expected a mapping or a value of type Dictionary<String, Any>")
        #expect(
            message("aggregation: {profiles: []}")
                == "c.yaml: key 'aggregation.profiles': expected a mapping or a value of type Dictionary<String, Any>")
    }
}
