import ArgumentParser
import Foundation
import RialEval
import RialMedia

extension DatasetCommand {
    /// `rial-bench dataset default`: make the built-in default data ready.
    struct Default: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Prepare the default data: generate (once, cached) the default synthetic set and fetch the real public set.",
            discussion: """
                The synthetic set (200 captures, 4 classes, 1600x1200 with a second view) is cached under \
                .cache/rial-bench (or $RIAL_CACHE), keyed by the generator version, its spec and its \
                textures; a second call reuses it. The real public set is linked from the data mirror \
                when one is reachable and skipped with a warning otherwise. --set video prepares the \
                default video set instead (40 recordings, 3 tamper suites; cached the same way), all \
                both. Prints the manifest paths.
                """)

        @Option(help: "Folder of the real data mirror (default: $RIAL_DATA_MIRROR or ../shared/datasets/real).")
        var mirror: String?

        @Option(help: "Which default data: photo (synthetic and real public), video, or all.")
        var set: DefaultSet = .photo

        @OptionGroup var jobs: JobsOption

        func run() throws {
            _ = try DefaultDatasets.prepare(mirror: mirror, jobs: jobs.count, set: set)
        }
    }
}
