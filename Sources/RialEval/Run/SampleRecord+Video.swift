import RialDetection
import RialMedia
import RialProvenance

extension SampleRecord {
    /// What `run` found about a video sample beyond the photo methods (`video` in
    /// `samples.jsonl`; absent for photos): the recording, how its hash chain was
    /// checked and what the check said, its tamper label, and the deployed backend's
    /// video confidence level (`aggregation.video_rule`, methods.md section 6).
    public struct Video: Sendable, Equatable, Codable {
        /// Frames in the raw frame sequence; nil without one (an MP4 alone).
        public var frames: Int?
        /// Depth keyframes in the blob (0 without depth).
        public var keyframes: Int
        /// Seconds from the first to the last frame (frame timestamps; else keyframe
        /// timestamps); nil when neither has two.
        public var durationSeconds: Double?
        /// `fps` from the manifest.
        public var framesPerSecond: Double?
        /// `rldp` or `headerless`; nil without depth keyframes.
        public var depthVariant: String?
        /// Where the still the photo methods analysed came from: `image` (the sample's
        /// own), or `frame N (NV12 bt601 video range)` (0-based frame, converted to
        /// RGB); nil when there was none (see the record's `failure`).
        public var still: String?
        /// The depth keyframe (0-based) given to the photo methods as the still's depth:
        /// the one nearest in time to the still's frame; nil when none was used, with the
        /// reason in `still_depth_note`.
        public var stillDepthKeyframe: Int?
        public var stillDepthNote: String?
        /// The hash chain check; nil when the sample has no `hash_chain`.
        public var chain: Chain?
        /// The manifest's `tamper` label; nil when the key is absent.
        public var tamper: Tamper?
        /// Hardware attestation as the rule reads it (`MVPEvidenceRule.hardware`).
        public var hardware: EvidenceCheckStatus
        /// temporal/1's verdict, consistency and stability when it completed (what the
        /// rule reads as depth); nil otherwise.
        public var ruleDepth: VideoConfidenceRule.Depth?
        /// The deployed video rule's level (`VideoConfidenceRule.level`).
        public var deployedLevel: ConfidenceLevel

        enum CodingKeys: String, CodingKey {
            case frames, keyframes
            case durationSeconds = "duration_s"
            case framesPerSecond = "fps"
            case depthVariant = "depth_variant"
            case still
            case stillDepthKeyframe = "still_depth_keyframe"
            case stillDepthNote = "still_depth_note"
            case chain, tamper, hardware
            case ruleDepth = "rule_depth"
            case deployedLevel = "deployed_level"
        }

        /// How the chain was checked and what the check said.
        public struct Chain: Sendable, Equatable, Codable {
            public enum Check: String, Sendable, Equatable, Codable, CaseIterable {
                /// Every hash recomputed from the raw frames (`HashChainVerifier`).
                case recomputed
                /// The deployed verifier's structural check only (`DeployedChainCheck`):
                /// no raw frames, so no hash was recomputed.
                case structural
            }

            public var check: Check
            public var status: HashChainVerification.Status
            public var tamper: HashChainVerification.Tamper?
            /// 1-based; nil when nothing was placed on a frame (always for `structural`).
            public var firstBadFrame: Int?
            public var attestedFrames: Int
            public var framesRead: Int
            public var detail: String

            enum CodingKeys: String, CodingKey {
                case check, status, tamper
                case firstBadFrame = "first_bad_frame"
                case attestedFrames = "attested_frames"
                case framesRead = "frames_read"
                case detail
            }

            public init(check: Check, _ v: HashChainVerification) {
                self.check = check
                status = v.status
                tamper = v.tamper
                firstBadFrame = v.firstBadFrame
                attestedFrames = v.attestedFrames
                framesRead = v.framesRead
                detail = v.detail
            }

            /// The verification this block records.
            public var verification: HashChainVerification {
                HashChainVerification(
                    status: status, framesRead: framesRead, firstBadFrame: firstBadFrame, tamper: tamper,
                    attestedFrames: attestedFrames, detail: detail)
            }
        }

        /// A tamper-suite label: `intact`, or the kind and the 1-based frame.
        public struct Tamper: Sendable, Equatable, Codable {
            public var kind: String
            public var frame: Int?

            public init(kind: String, frame: Int?) {
                self.kind = kind
                self.frame = frame
            }

            public var isIntact: Bool { kind == TamperLabel.intact }
        }

        public init(
            frames: Int?, keyframes: Int, durationSeconds: Double?, framesPerSecond: Double?, depthVariant: String?,
            still: String?, stillDepthKeyframe: Int?, stillDepthNote: String?, chain: Chain?, tamper: Tamper?,
            hardware: EvidenceCheckStatus, ruleDepth: VideoConfidenceRule.Depth?, deployedLevel: ConfidenceLevel
        ) {
            self.frames = frames
            self.keyframes = keyframes
            self.durationSeconds = durationSeconds
            self.framesPerSecond = framesPerSecond
            self.depthVariant = depthVariant
            self.still = still
            self.stillDepthKeyframe = stillDepthKeyframe
            self.stillDepthNote = stillDepthNote
            self.chain = chain
            self.tamper = tamper
            self.hardware = hardware
            self.ruleDepth = ruleDepth
            self.deployedLevel = deployedLevel
        }

        /// The rule's view of the chain: recomputed as `VideoConfidenceRule.Chain(_:)`;
        /// structural as the deployed backend sees it (its check passing counts as an
        /// intact chain, since it cannot know better); no chain is `unavailable`.
        public var ruleChain: VideoConfidenceRule.Chain {
            guard let chain else {
                return VideoConfidenceRule.Chain(
                    status: .unavailable, intact: false, attestationValid: false, partialCheckpointVerified: false)
            }
            return VideoConfidenceRule.Chain(chain.verification)
        }

        /// The level of the deployed rule `rule` for this recording.
        public func level(under rule: VideoConfidenceRule) -> ConfidenceLevel {
            rule.level(hardware: hardware, chain: ruleChain, depth: ruleDepth)
        }
    }
}

extension VideoConfidenceRule.Depth {
    /// What the rule reads of temporal/1's result fields (`is_likely_real_scene`,
    /// `depth_consistency`, `scene_stability`), nil unless it completed with all three.
    public init?(temporalV1 fields: JSONObject) {
        guard fields["status"]?.stringValue == "completed", case .bool(let real)? = fields["is_likely_real_scene"],
            let consistency = fields["depth_consistency"]?.numberValue,
            let stability = fields["scene_stability"]?.numberValue
        else { return nil }
        self.init(isReal: real, consistency: consistency, stability: stability)
    }
}
