import ArgumentParser
import Foundation
import RialEval
import RialMedia

/// Which built-in default data `run` and `dataset default` use.
enum DefaultSet: String, CaseIterable, ExpressibleByArgument {
    /// The default synthetic photo set and the real public set (the CI baseline).
    case photo
    /// The default video set (simulated recordings and tamper suites).
    case video
    /// Both.
    case all
}

/// The built-in default data, made ready: used by `dataset default` and by `run`
/// without `--dataset`.
enum DefaultDatasets {
    /// Generates (once, cached) the default synthetic set and links the real public set
    /// from the mirror when one is reachable. Prints one line per set.
    ///
    /// - Returns: the manifest paths: synthetic photos, real public, video (those `set` names).
    static func prepare(mirror: String?, jobs: Int, set: DefaultSet = .photo) throws -> [String] {
        let photos = set == .video ? [] : try preparePhotos(mirror: mirror, jobs: jobs)
        let video = set == .photo ? [] : [try prepareVideo(mirror: mirror, jobs: jobs)]
        return photos + video
    }

    /// Generates (once, cached) the default video set; prints one line.
    static func prepareVideo(mirror: String?, jobs: Int) throws -> String {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let mirrorLocation = try locateMirror(mirror, root: root, manifestDirectory: root)
        let spec = DefaultData.videoSpec
        let progress = ProgressReporter(label: "default video set", total: spec.recordingCount)
        let prepared: DefaultData.Prepared
        do {
            prepared = try DefaultData.prepareVideo(
                cache: DefaultData.cacheDirectory(root: root), mirror: mirrorLocation?.url, jobs: jobs,
                progress: { progress.update($0) })
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }
        Terminal.out(
            "video: \(prepared.manifestPath) (\(prepared.generated ? "generated" : "cached"), "
                + "\(spec.count) recordings and \(spec.tamperRecordings) tamper suites, "
                + "\(prepared.textureCount) mirror textures)")
        return prepared.manifestPath
    }

    /// The real data mirror (`--mirror`, else the environment or the usual places), nil
    /// when none is reachable.
    /// - Throws: `CLIError.badInput` when an explicit `--mirror` is not a folder.
    private static func locateMirror(_ mirror: String?, root: URL, manifestDirectory: URL) throws
        -> DatasetFetcher.MirrorLocation?
    {
        let location = try? DatasetFetcher.locateMirror(
            explicit: mirror, environment: ProcessInfo.processInfo.environment,
            currentDirectory: root, manifestDirectory: manifestDirectory
        ).mirror
        if mirror != nil && location == nil {
            throw CLIError.badInput("\(mirror ?? ""): no such folder (the real data mirror)")
        }
        return location
    }

    /// The photo default: the synthetic set and the real public set when reachable.
    static func preparePhotos(mirror: String?, jobs: Int) throws -> [String] {
        let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let realManifest = root.appendingPathComponent(DefaultData.realPublicManifest)
        let mirrorLocation = try locateMirror(
            mirror, root: root, manifestDirectory: realManifest.deletingLastPathComponent())

        let spec = DefaultData.syntheticSpec
        let progress = ProgressReporter(label: "default synthetic set", total: spec.count)
        let prepared: DefaultData.Prepared
        do {
            prepared = try DefaultData.prepareSynthetic(
                cache: DefaultData.cacheDirectory(root: root), mirror: mirrorLocation?.url, jobs: jobs,
                progress: { progress.update($0) })
        } catch let error as MediaError {
            throw CLIError.badInput(error.description)
        }
        Terminal.out(
            "synthetic: \(prepared.manifestPath) (\(prepared.generated ? "generated" : "cached"), "
                + "\(spec.count) captures, \(prepared.textureCount) mirror textures)")

        guard let mirrorLocation, FileManager.default.fileExists(atPath: realManifest.path) else {
            Terminal.warning("real public set skipped: no data mirror found (set RIAL_DATA_MIRROR or pass --mirror)")
            return [prepared.manifestPath]
        }
        let loader = try DatasetCommandSupport.loader(realManifest.path)
        let report = DatasetFetcher(loader: loader, mirror: mirrorLocation.url, downloader: nil).fetch()
        guard report.succeeded else {
            let failures = report.files.compactMap { file -> String? in
                guard case .failed(let reason) = file.outcome else { return nil }
                return "\(file.path): \(reason)"
            }
            throw CLIError.badInput(
                lines: failures + ["\(realManifest.path): \(report.failedCount) file(s) could not be fetched"])
        }
        Terminal.out("real public: \(realManifest.path) (\(report.files.count) files from \(mirrorLocation.url.path))")
        return [prepared.manifestPath, realManifest.path]

    }
}
