import Foundation
import RialCodecs
import RialDetection
import RialMedia
import RialProvenance

/// Reads what a privacy-mode payload is verified against, from files (`analyze
/// --privacy-payload`): each one optional.
public enum PrivacyEvidenceLoader {
    /// The files beside a payload.
    public struct Files: Sendable {
        /// The media the payload's `media_hash` covers (photo or movie file); hashed, never decoded.
        public var media: String?
        public var depth: String?
        public var depthFormat: DepthFormat?
        public var depthWidth: Int?
        public var depthHeight: Int?
        public var depthScale: Double?
        /// A video's recorded hash chain (`HashChainRecord` JSON).
        public var chain: String?
        /// A reference temporal result (a JSON object, e.g. a temporal method's result on the recording).
        public var temporalReference: String?
        /// A video's depth keyframe blob (`DepthKeyframeBlob`, either variant; a headerless
        /// one takes `depthWidth` x `depthHeight`): the phone's privacy-mode temporal
        /// analysis is recomputed on it (`TemporalAnalyzerV1.privacyAnalysis`) and becomes
        /// the temporal reference. Not together with `temporalReference`.
        public var depthKeyframes: String?
        public var attestation: AttestationEvidence

        public init(
            media: String? = nil, depth: String? = nil, depthFormat: DepthFormat? = nil, depthWidth: Int? = nil,
            depthHeight: Int? = nil, depthScale: Double? = nil, chain: String? = nil, temporalReference: String? = nil,
            depthKeyframes: String? = nil, attestation: AttestationEvidence = .missing
        ) {
            self.depthKeyframes = depthKeyframes
            self.media = media
            self.depth = depth
            self.depthFormat = depthFormat
            self.depthWidth = depthWidth
            self.depthHeight = depthHeight
            self.depthScale = depthScale
            self.chain = chain
            self.temporalReference = temporalReference
            self.attestation = attestation
        }
    }

    /// Hashes the media (streamed: a movie file is never held whole), reads the depth map,
    /// the chain record and the temporal reference.
    ///
    /// - Throws: `CaptureLoadError` naming the first file that cannot be read or decoded.
    ///
    /// - Parameter singleFrame: the single-frame depth analysis the phone's privacy-mode
    ///   temporal variant runs on every keyframe (depth/1 as configured).
    public static func load(_ files: Files, singleFrame: DepthAnalyzerV1 = DepthAnalyzerV1())
        throws(CaptureLoadError) -> PrivacyVerification.Evidence
    {
        var evidence = PrivacyVerification.Evidence(attestation: files.attestation)
        if let path = files.depthKeyframes, files.temporalReference != nil {
            throw CaptureLoadError(
                path: path, "depth keyframes and a temporal reference both give the reference; give one")
        }
        if let media = files.media {
            do { evidence.mediaSHA256 = try SHA256Digest.hash(fileAt: media) } catch {
                throw CaptureLoader.failure(error, path: media)
            }
        }
        if let path = files.depth {
            let data = try CaptureLoader.read(path)
            guard let format = files.depthFormat ?? CaptureLoader.inferDepthFormat(data) else {
                throw CaptureLoadError(
                    path: path,
                    "the depth format cannot be told from the content (raw float32?); give it (--depth-format)")
            }
            do {
                evidence.depth = try DepthReader.read(
                    data: data, format: format, width: files.depthWidth, height: files.depthHeight,
                    scale: files.depthScale, source: path)
            } catch { throw CaptureLoader.failure(error, path: path) }
        }
        if let path = files.chain {
            let data = try CaptureLoader.read(path)
            do { evidence.chain = try JSONDecoder().decode(HashChainRecord.self, from: data) } catch {
                throw CaptureLoadError(
                    path: path, "not a hash chain record (frame_hashes, checkpoints, final_hash, attestation): \(error)"
                )
            }
        }
        if let path = files.temporalReference {
            let data = try CaptureLoader.read(path)
            let value: JSONValue
            do { value = try JSONValue.parse(data) } catch {
                throw CaptureLoadError(path: path, "not valid JSON: \(error.description)")
            }
            guard let object = value.objectValue else {
                throw CaptureLoadError(
                    path: path, "a temporal reference must be a JSON object, got \(value.typeDescription)")
            }
            evidence.temporalReference = object
        }
        if let path = files.depthKeyframes {
            let keyframes: DepthKeyframes
            do {
                keyframes = try DepthKeyframeBlob.read(path: path, width: files.depthWidth, height: files.depthHeight)
                    .keyframes
            } catch { throw CaptureLoader.failure(error, path: path) }
            let analysis = TemporalAnalyzerV1().privacyAnalysis(keyframes, singleFrame: singleFrame)
            evidence.temporalReference = (try? JSONValue.encoded(analysis))?.objectValue
        }
        return evidence
    }
}
