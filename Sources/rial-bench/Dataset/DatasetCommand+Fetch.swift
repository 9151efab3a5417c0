import ArgumentParser
import Foundation
import RialEval

extension DatasetCommand {
    /// `rial-bench dataset fetch MANIFEST`: fills the manifest's cache folder.
    struct Fetch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make every file of a manifest available in its cache folder, verifying SHA-256.",
            discussion: """
                Files go to the manifest's cache folder (key "cache", default files/ beside the \
                manifest; keep it git-ignored). Each file is symlinked from a mirror folder when the \
                mirror has it with the right SHA-256 (files are never copied out of the mirror), \
                else read from a local clone given by --clones (github:OWNER/NAME@COMMIT:PATH \
                sources: the blob at that commit, from DIR/OWNER+NAME/repo, DIR/OWNER+NAME or \
                DIR/NAME, bare or not; needs git) and verified, \
                else downloaded from upstream (github: sources, or a recorded url) and verified. \
                Mirror: --mirror DIR, else $RIAL_DATA_MIRROR, else ../shared/datasets/real from \
                the current directory or from the manifest's repository root. \
                PyPI and Debian sources cannot be downloaded; they need the mirror. \
                Prints one line per file (linked, extracted, downloaded, already present, failed); exit \
                status 65 when any file failed.
                """
        )

        @Argument(help: "The manifest.json whose files to fetch.")
        var manifest: String

        @Option(help: "Mirror folder holding the files at their paths relative to the cache folder.")
        var mirror: String?

        @Option(
            help:
                "Folder of local git clones to read github: sources from (DIR/OWNER+NAME/repo, DIR/OWNER+NAME or DIR/NAME)."
        )
        var clones: String?

        @Flag(help: "Never download; use only files already present, the mirror and the clones.")
        var noDownload = false

        @Option(help: "Seconds without data before a download fails.")
        var timeout: Double = 30

        func validate() throws {
            guard timeout > 0, timeout.isFinite else {
                throw ValidationError("--timeout must be a positive number of seconds")
            }
            if let mirror {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: mirror, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ValidationError("--mirror \(mirror): no such folder")
                }
            }
            if let clones {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: clones, isDirectory: &isDirectory), isDirectory.boolValue
                else {
                    throw ValidationError("--clones \(clones): no such folder")
                }
            }
        }

        func run() throws {
            let loader = try DatasetCommandSupport.loader(manifest)
            let location: DatasetFetcher.MirrorLocation?
            do {
                let found = try DatasetFetcher.locateMirror(
                    explicit: mirror, environment: ProcessInfo.processInfo.environment,
                    currentDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
                    manifestDirectory: loader.baseDirectory)
                for warning in found.warnings { Terminal.warning(warning) }
                location = found.mirror
            } catch {
                throw ValidationError(error.description)
            }
            let downloader: (any FileDownloading)? =
                noDownload
                ? nil : URLSessionDownloader(requestTimeout: timeout, resourceTimeout: max(timeout * 10, 300))
            let localClones = clones.map { LocalClones(folder: URL(fileURLWithPath: $0)) }
            let fetcher = DatasetFetcher(
                loader: loader, mirror: location?.url, downloader: downloader, clones: localClones)
            if let location {
                Terminal.out("mirror: \(location.url.path) (\(location.origin))")
            } else {
                Terminal.out("mirror: none found" + (localClones == nil ? "; downloading from upstream" : ""))
            }
            if let localClones { Terminal.out("clones: \(localClones.folder.path)") }
            let report = fetcher.fetch { file in
                switch file.outcome {
                case .failed:
                    Terminal.error(file.description)
                case .linked(let target):
                    Terminal.out("linked           \(file.path) -> \(target)" + (file.note.map { " (\($0))" } ?? ""))
                case .extracted(let clone):
                    Terminal.out("extracted        \(file.path) <- \(clone)" + (file.note.map { " (\($0))" } ?? ""))
                case .downloaded(let url):
                    Terminal.out("downloaded       \(file.path) <- \(url)" + (file.note.map { " (\($0))" } ?? ""))
                case .alreadyPresent(let verified):
                    Terminal.out("already present  \(file.path)" + (verified ? "" : " (not verified: no sha256)"))
                }
            }
            for problem in report.manifestProblems { Terminal.error(problem.description) }
            Terminal.out(
                "\(manifest): \(report.files.count) files: \(report.linkedCount) linked, \(report.extractedCount) extracted, "
                    + "\(report.downloadedCount) downloaded, \(report.alreadyPresentCount) already present, "
                    + "\(report.failedCount) failed")
            if !report.succeeded { throw ExitStatus.badInput }
        }
    }
}
