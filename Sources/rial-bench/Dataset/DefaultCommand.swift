import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension DatasetCommand {
    /// `rial-bench dataset default`: make the built-in default data ready.
    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prepare the default data: generate (once, cached) the default synthetic set and fetch the real public set.",
            discussion: """
                The synthetic set (200 captures, 4 classes, 1600x1200 with a second view) is cached under \
                .cache/rial-bench (or $RIAL_CACHE), keyed by the generator version, its spec and its \
                textures; a second call reuses it. The real public set is linked from the data mirror \
                when one is reachable and skipped with a warning otherwise. Prints the manifest paths.
                """)

        @Option(help: "Folder of the real data mirror (default: $RIAL_DATA_MIRROR or ../shared/datasets/real).")
        var mirror: String?

        @Option(help: "Worker threads for generation (default: all cores).")
        var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

        func validate() throws {
            if jobs < 1 { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        }

        func run() throws {
            let root = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            let realManifest = root.appendingPathComponent(DefaultData.realPublicManifest)
            let mirrorLocation = try? DatasetFetcher.locateMirror(
                explicit: mirror, environment: ProcessInfo.processInfo.environment,
                currentDirectory: root, manifestDirectory: realManifest.deletingLastPathComponent()).mirror
            if mirror != nil && mirrorLocation == nil {
                Terminal.error("\(mirror ?? ""): no such folder (the real data mirror)")
                throw ExitStatus.badInput
            }

            let spec = DefaultData.syntheticSpec
            let progress = ProgressReporter(label: "default synthetic set", total: spec.count)
            let prepared: DefaultData.Prepared
            do {
                prepared = try DefaultData.prepareSynthetic(
                    cache: DefaultData.cacheDirectory(root: root), mirror: mirrorLocation?.url, jobs: jobs,
                    progress: { progress.update($0) })
            } catch let error as MediaError {
                Terminal.error(error.description)
                throw ExitStatus.badInput
            }
            Terminal.out("synthetic: \(prepared.manifestPath) (\(prepared.generated ? "generated" : "cached"), "
                + "\(spec.count) captures, \(prepared.textureCount) mirror textures)")

            guard let mirrorLocation, FileManager.default.fileExists(atPath: realManifest.path) else {
                Terminal.warning("real public set skipped: no data mirror found (set RIAL_DATA_MIRROR or pass --mirror)")
                return
            }
            let loader = try DatasetCommandSupport.loader(realManifest.path)
            let report = DatasetFetcher(loader: loader, mirror: mirrorLocation.url, downloader: nil).fetch()
            guard report.succeeded else {
                for file in report.files {
                    if case .failed(let reason) = file.outcome { Terminal.error("\(file.path): \(reason)") }
                }
                Terminal.error("\(realManifest.path): \(report.failedCount) file(s) could not be fetched")
                throw ExitStatus.badInput
            }
            Terminal.out("real public: \(realManifest.path) (\(report.files.count) files from \(mirrorLocation.url.path))")
        }
    }
}
