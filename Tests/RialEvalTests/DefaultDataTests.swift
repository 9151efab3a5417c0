import Foundation
import RialSynth
import Testing

@testable import RialEval

@Suite struct DefaultDataTests {
    /// The key is a folder-safe 16-digit hex name that depends on the spec's value (not
    /// on how it was built), on every field of it and on the texture list.
    @Test func cacheKeyFollowsSpecAndTextures() throws {
        let a = SynthDatasetSpec(count: 10, seed: 1, width: 128, height: 96)
        let key = DefaultData.cacheKey(spec: a, textureSources: [])
        #expect(key.count == 16 && key.allSatisfy { "0123456789abcdef".contains($0) }, "\(key)")
        let decoded = try JSONDecoder().decode(SynthDatasetSpec.self, from: JSONEncoder().encode(a))
        #expect(DefaultData.cacheKey(spec: decoded, textureSources: []) == key)
        let changes: [(String, (inout SynthDatasetSpec) -> Void)] = [
            ("count", { $0.count = 11 }), ("seed", { $0.seed = 2 }), ("classes", { $0.classes = [.realScene] }),
            ("width", { $0.width = 160 }), ("height", { $0.height = 120 }), ("secondView", { $0.secondView = true }),
            ("trainFraction", { $0.trainFraction = 0.5 }), ("valFraction", { $0.valFraction = 0.3 }),
        ]
        for (field, change) in changes {
            var b = a
            change(&b)
            #expect(DefaultData.cacheKey(spec: b, textureSources: []) != key, "\(field)")
        }
        #expect(DefaultData.cacheKey(spec: a, textureSources: ["x"]) != key)
    }

    /// First call generates, second reuses; a folder without a manifest (an interrupted
    /// run) is regenerated rather than trusted.
    @Test func generatesOnceThenReusesTheCache() throws {
        let cache = try Fixtures.makeTemporaryFolder("rial-default")
        defer { try? FileManager.default.removeItem(at: cache) }
        let spec = SynthDatasetSpec(count: 2, seed: 9, width: 96, height: 72)
        let first = try DefaultData.prepareSynthetic(spec: spec, cache: cache, mirror: nil, jobs: 2)
        #expect(first.generated)
        let second = try DefaultData.prepareSynthetic(spec: spec, cache: cache, mirror: nil, jobs: 2)
        #expect(!second.generated && second.manifestPath == first.manifestPath)
        try FileManager.default.removeItem(atPath: first.manifestPath)
        let third = try DefaultData.prepareSynthetic(spec: spec, cache: cache, mirror: nil, jobs: 2)
        #expect(third.generated)
        #expect(try DatasetLoader(contentsOf: third.manifestPath).validate().isValid)
    }

    /// The cache key is computed from hashes alone; it must name exactly the textures
    /// that loading them would report.
    @Test func textureSourcesFromHashesMatchLoading() throws {
        let fromHashes = try SynthTextureLibrary.sources(mirror: Fixtures.realMirror)
        let loaded = try SynthTextureLibrary.load(mirror: Fixtures.realMirror)
        #expect(fromHashes.count == SynthTextureLibrary.mirrorFiles.count)
        #expect(fromHashes == loaded.sources)
        #expect(loaded.textures.count == fromHashes.count)
    }

    @Test func cacheDirectoryHonoursTheEnvironment() {
        let root = URL(fileURLWithPath: "/work/x")
        #expect(DefaultData.cacheDirectory(root: root, environment: [:]).path == "/work/x/.cache/rial-bench")
        #expect(DefaultData.cacheDirectory(root: root, environment: ["RIAL_CACHE": "/tmp/c"]).path == "/tmp/c")
    }
}
