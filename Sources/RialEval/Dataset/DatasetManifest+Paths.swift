import Foundation

extension DatasetManifest {
    /// The manifest with every relative file path rewritten so it names the same file
    /// when the manifest lives in `newBase` instead of `oldBase` (for writing a manifest
    /// to another folder). Absolute paths are unchanged.
    ///
    /// Rewritten: `image`, `depth.path`, `stereo.right` and the `path` of every extension
    /// object that has one (see `FileReference`). Both folders are taken as absolute
    /// (relative ones resolve against the current directory); symbolic links are not
    /// resolved.
    public func rebased(from oldBase: URL, to newBase: URL) -> DatasetManifest {
        let old = oldBase.standardizedFileURL, new = newBase.standardizedFileURL
        guard old.path != new.path else { return self }
        func rebase(_ path: String) -> String {
            if path.hasPrefix("/") { return path }
            let target = old.appendingPathComponent(path).standardizedFileURL
            return Self.relativePath(of: target, from: new)
        }
        var copy = self
        copy.samples = samples.map { sample in
            var s = sample
            s.image = rebase(s.image)
            s.depth?.path = rebase(sample.depth?.path ?? "")
            s.stereo?.right = rebase(sample.stereo?.right ?? "")
            for (key, value) in sample.extensions where key != DatasetSample.upstreamKey {
                guard var object = value.objectValue, let path = object["path"]?.stringValue else { continue }
                object["path"] = .string(rebase(path))
                s.extensions[key] = .object(object)
            }
            return s
        }
        return copy
    }

    /// The path of `target` relative to the folder `base`, both absolute and
    /// standardized: `../x/y.jpg` style; `.` when they are equal.
    static func relativePath(of target: URL, from base: URL) -> String {
        let t = target.pathComponents, b = base.pathComponents
        var common = 0
        while common < t.count, common < b.count, t[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: b.count - common) + t[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
