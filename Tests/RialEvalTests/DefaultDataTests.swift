import Foundation
import Testing
@testable import RialEval
import RialSynth

@Suite struct DefaultDataTests {
    @Test func cacheKeyFollowsSpecAndTextures() {
        let a = SynthDatasetSpec(count: 10, seed: 1, width: 128, height: 96)
        var b = a
        b.seed = 2
        #expect(DefaultData.cacheKey(spec: a, textureSources: []) == DefaultData.cacheKey(spec: a, textureSources: []))
        #expect(DefaultData.cacheKey(spec: a, textureSources: []) != DefaultData.cacheKey(spec: b, textureSources: []))
        #expect(DefaultData.cacheKey(spec: a, textureSources: []) != DefaultData.cacheKey(spec: a, textureSources: ["x"]))
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
