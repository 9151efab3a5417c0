import ArgumentParser
import Foundation

/// `--shard I/N | auto` and `--shard-count N`: which part of the selection `run` evaluates.
///
/// `--shard I/N` is shard I of N, 1 <= I <= N. `--shard auto` reads I and N from the
/// scheduler that started the process:
///
/// 1. Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` is the 0-based index, so I is
///    index + 1; Kubernetes passes no count, so N is `--shard-count` (the Job's
///    `completions`), and 0 <= index < N.
/// 2. Slurm job array: `SLURM_ARRAY_TASK_ID`, `SLURM_ARRAY_TASK_MIN`,
///    `SLURM_ARRAY_TASK_MAX` and `SLURM_ARRAY_TASK_COUNT`. The array must be one
///    contiguous range (`--array=0-3` or `--array=1-4`, MAX - MIN + 1 = COUNT); I is
///    ID - MIN + 1 and N is COUNT, so arrays starting at 0, 1 or any other index give the
///    same shards. `--shard-count`, when given, must equal COUNT.
///
/// Every variable must be a decimal integer in range; a missing, non-integer or
/// out-of-range variable, both schedulers' variables at once, or `--shard-count` without
/// `--shard auto` is a usage error (exit 64) naming the variable and its value.
struct ShardOptions: ParsableArguments {
    @Option(
        help: """
            Evaluate shard I of N (e.g. 1/4), or `auto`: I and N from a Kubernetes Indexed Job or a Slurm \
            job array; combine the shard folders with `rial-bench merge`.
            """)
    var shard: String?

    @Option(
        help: ArgumentHelp(
            """
            With --shard auto: the number of shards N, required for a Kubernetes Indexed Job (its \
            completions); for a Slurm array, checked against SLURM_ARRAY_TASK_COUNT.
            """, valueName: "n"))
    var shardCount: Int?

    /// One shard of a run, 1-based, and where it came from.
    struct Shard: Equatable {
        /// I, in 1...count.
        var index: Int
        /// N, at least 1.
        var count: Int
        /// The variables it was read from (`--shard auto`), for the log; nil for `I/N`.
        var origin: String?
    }

    /// Why `--shard auto` or `--shard-count` cannot be used: the one-line message.
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// The Kubernetes Indexed Job variable.
    static let kubernetesIndex = "JOB_COMPLETION_INDEX"
    /// The Slurm job array variables.
    static let slurmID = "SLURM_ARRAY_TASK_ID"
    static let slurmMin = "SLURM_ARRAY_TASK_MIN"
    static let slurmMax = "SLURM_ARRAY_TASK_MAX"
    static let slurmCount = "SLURM_ARRAY_TASK_COUNT"

    func validate() throws {
        do { _ = try resolved() } catch let problem as Problem { throw ValidationError(problem.description) }
    }

    /// The shard to evaluate, or nil for the whole selection.
    ///
    /// - Parameter environment: the process environment (a parameter for tests).
    /// - Throws: `Problem` for a malformed `--shard`, `--shard-count` or scheduler variable.
    func resolved(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Shard? {
        if let shardCount, shardCount < 1 {
            throw Problem(description: "--shard-count must be at least 1, got \(shardCount)")
        }
        guard let shard else {
            if shardCount != nil { throw Problem(description: "--shard-count needs --shard auto") }
            return nil
        }
        if shard == "auto" { return try Self.fromScheduler(environment: environment, count: shardCount) }
        if shardCount != nil {
            throw Problem(description: "--shard-count needs --shard auto (--shard \(shard) gives the count itself)")
        }
        guard let (index, count) = Self.parse(shard) else {
            throw Problem(
                description: "--shard must be I/N with 1 <= I <= N (e.g. 2/4) or auto, got \(shard.debugDescription)")
        }
        return Shard(index: index, count: count, origin: nil)
    }

    /// `I/N` with 1 <= I <= N, or nil.
    static func parse(_ text: String) -> (index: Int, count: Int)? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (1...n).contains(i) else {
            return nil
        }
        return (i, n)
    }

    /// The shard named by the scheduler's variables (see the type's documentation).
    static func fromScheduler(environment: [String: String], count: Int?) throws -> Shard {
        let kubernetes = environment[kubernetesIndex] != nil, slurm = environment[slurmID] != nil
        switch (kubernetes, slurm) {
        case (true, true):
            throw Problem(
                description:
                    "--shard auto: both \(kubernetesIndex) (Kubernetes) and \(slurmID) (Slurm) are set; unset the one that does not belong to this job"
            )
        case (true, false):
            let index = try integer(kubernetesIndex, environment)
            guard let count else {
                throw Problem(
                    description:
                        "--shard auto: \(kubernetesIndex) is set (Kubernetes Indexed Job) but the count is not; pass --shard-count N, the Job's completions"
                )
            }
            guard (0..<count).contains(index) else {
                throw Problem(
                    description:
                        "--shard auto: \(kubernetesIndex)=\(index) is out of range 0...\(count - 1) for --shard-count \(count)"
                )
            }
            return Shard(index: index + 1, count: count, origin: "\(kubernetesIndex)=\(index), --shard-count \(count)")
        case (false, true):
            return try fromSlurm(environment: environment, count: count)
        case (false, false):
            throw Problem(
                description:
                    "--shard auto: neither \(kubernetesIndex) (Kubernetes Indexed Job) nor \(slurmID) (Slurm job array) is set; use --shard I/N outside a scheduler"
            )
        }
    }

    private static func fromSlurm(environment: [String: String], count expected: Int?) throws -> Shard {
        let id = try integer(slurmID, environment), low = try integer(slurmMin, environment)
        let high = try integer(slurmMax, environment), count = try integer(slurmCount, environment)
        let values = "\(slurmMin)=\(low), \(slurmMax)=\(high), \(slurmCount)=\(count)"
        guard count >= 1, low >= 0, high >= low, high - low + 1 == count else {
            throw Problem(
                description:
                    "--shard auto: the Slurm array must be one contiguous range (e.g. --array=1-4), got \(values)")
        }
        guard (low...high).contains(id) else {
            throw Problem(description: "--shard auto: \(slurmID)=\(id) is out of range \(low)...\(high) (\(values))")
        }
        if let expected, expected != count {
            throw Problem(description: "--shard auto: --shard-count \(expected) differs from \(slurmCount)=\(count)")
        }
        return Shard(index: id - low + 1, count: count, origin: "\(slurmID)=\(id), \(values)")
    }

    /// The decimal integer in `environment[name]`; a missing or malformed value is a `Problem`.
    private static func integer(_ name: String, _ environment: [String: String]) throws -> Int {
        guard let text = environment[name] else { throw Problem(description: "--shard auto: \(name) is not set") }
        guard let value = Int(text), text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-") }) else {
            throw Problem(
                description: "--shard auto: \(name) is \(String(text.prefix(40)).debugDescription), not an integer")
        }
        return value
    }
}
