import Foundation
import RialCodecs
import RialMedia
import RialSynth

/// The built-in default data the main job evaluates when given no dataset: a
/// synthetic set generated on first use and cached, plus the real public set when
/// its mirror is reachable.
public enum DefaultData {
    /// The default synthetic set: 200 captures, all four classes round-robin, at
    /// 1600 x 1200 with the second camera. Small enough to generate in about a minute
    /// on 2 cores, large enough for 50 captures per class.
    public static let syntheticSpec = SynthDatasetSpec(
        count: 200, seed: 20_261_121, width: 1600, height: 1200, secondView: true)

    /// The default video set: 40 recordings of 2.5 s (75 frames, 10 per class) at
    /// 160 x 120 with ARKit's 256 x 192 depth, plus the tamper suites of 3 recordings of
    /// 160 frames (past the first checkpoint at frame 150, so the interrupted control and
    /// the wrong checkpoint occur): 70 samples (20 bona fide, 50 attacks; 30 tamper-suite
    /// copies), 281 MB (frames 210, depth 70). Measured 2026-11-26, release build, 2 cores,
    /// 12 mirror textures: 36.3 s wall (69 s CPU, 360 MB peak memory) at load average 1.5;
    /// 60-70 s (batch-at-a-time writer) at load 3-5. `run` on it: 1.4-2.7 s (the
    /// i15-run branch's runner, before the temporal methods).
    public static let videoSpec = VideoSynthOptions(
        count: 40, seed: 20_261_126, seconds: 2.5, width: 160, height: 120, depthWidth: 256, depthHeight: 192,
        tamperRecordings: 3, tamperSeconds: 160 / VideoOptions.framesPerSecond)

    /// The real public manifest, relative to the package root.
    public static let realPublicManifest = "datasets/real-public/manifest.json"

    /// Where generated data is cached: `$RIAL_CACHE`, else `.cache/rial-bench` under
    /// `root` (git-ignored).
    public static func cacheDirectory(root: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        if let env = environment["RIAL_CACHE"], !env.isEmpty { return URL(fileURLWithPath: env) }
        return root.appendingPathComponent(".cache/rial-bench")
    }

    /// The cache key of a synthetic set: SHA-256 over the generator version, the spec
    /// and the texture provenance, so a change to any of them makes a new folder.
    public static func cacheKey(spec: SynthDatasetSpec, textureSources: [String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let specJSON = (try? encoder.encode(spec)).map { String(decoding: $0, as: UTF8.self) } ?? "\(spec)"
        let identity = [SynthGenerator.version, specJSON] + textureSources
        return String(SHA256Digest.hash(Data(identity.joined(separator: "\n").utf8)).prefix(16))
    }

    /// The cache key of a video set: SHA-256 over the video and scene generator
    /// versions, the options and the texture provenance.
    public static func cacheKey(video options: VideoSynthOptions, textureSources: [String]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = (try? encoder.encode(options)).map { String(decoding: $0, as: UTF8.self) } ?? "\(options)"
        let identity = [VideoGenerator.version, SynthGenerator.version, json] + textureSources
        return String(SHA256Digest.hash(Data(identity.joined(separator: "\n").utf8)).prefix(16))
    }

    /// What `prepareSynthetic` did.
    public struct Prepared: Sendable, Equatable {
        /// Absolute path of the set's `manifest.json`.
        public var manifestPath: String
        /// True when the set was generated now, false when it came from the cache.
        public var generated: Bool
        public var textureCount: Int
    }

    /// Returns the default synthetic set, generating it into the cache when missing.
    ///
    /// A set is complete when its `manifest.json` exists (the writer writes it last,
    /// atomically); a folder without one is a broken earlier attempt and is replaced.
    /// - Parameters:
    ///   - mirror: the real data mirror for textures; `nil` for procedural textures.
    ///   - progress: called with the number of captures finished (worker threads).
    /// - Throws: `MediaError` naming the file that could not be read or written.
    public static func prepareSynthetic(
        spec: SynthDatasetSpec = syntheticSpec, cache: URL, mirror: URL?,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @Sendable (Int) -> Void = { _ in }
    ) throws -> Prepared {
        try prepare(
            cache: cache, mirror: mirror, what: "default set",
            folder: { "synth-\(cacheKey(spec: spec, textureSources: $0))" },
            generate: {
                try SynthDatasetWriter(spec: spec, textures: $0, textureSources: $1)
                    .write(to: $2, jobs: jobs, progress: progress).manifestPath
            })
    }

    /// Returns the default video set, generating it into the cache (`video-<key>`) when
    /// missing; complete when its `manifest.json` exists, as for `prepareSynthetic`.
    ///
    /// Timings and size of the default: `videoSpec`.
    /// - Parameter progress: called with the number of recordings written (worker threads).
    /// - Throws: `MediaError` naming the file that could not be read or written.
    public static func prepareVideo(
        options: VideoSynthOptions = videoSpec, cache: URL, mirror: URL?,
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: @Sendable (Int) -> Void = { _ in }
    ) throws -> Prepared {
        try prepare(
            cache: cache, mirror: mirror, what: "default video set",
            folder: { "video-\(cacheKey(video: options, textureSources: $0))" },
            generate: {
                try VideoSynthDatasetWriter(options: options, textures: $0, textureSources: $1)
                    .write(to: $2, jobs: jobs, progress: progress).manifestPath
            })
    }

    /// The cache step both sets share: the folder named from the textures' hashes (decoding
    /// the textures, about a second, is paid only when the set has to be generated); a
    /// folder with its `manifest.json` is complete and reused, any other is replaced by
    /// what `generate(textures, sources, folder)` writes (it returns the manifest's path).
    static func prepare(
        cache: URL, mirror: URL?, what: String, folder name: ([String]) -> String,
        generate: ([PlanarImage], [String], String) throws -> String
    ) throws -> Prepared {
        let sources = try mirror.map { try SynthTextureLibrary.sources(mirror: $0) } ?? []
        let folder = cache.appendingPathComponent(name(sources))
        let manifest = folder.appendingPathComponent("manifest.json")
        if FileManager.default.fileExists(atPath: manifest.path) {
            return Prepared(manifestPath: manifest.path, generated: false, textureCount: sources.count)
        }
        try? FileManager.default.removeItem(at: folder)
        let (textures, loadedSources) = try mirror.map { try SynthTextureLibrary.load(mirror: $0) } ?? ([], [])
        guard loadedSources == sources else {
            throw MediaError(
                .unreadable, source: mirror?.path ?? cache.path,
                "texture files changed while the \(what) was being prepared; run again")
        }
        let path = try generate(textures, loadedSources, folder.path)
        return Prepared(manifestPath: path, generated: true, textureCount: textures.count)
    }
}
