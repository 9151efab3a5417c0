import Foundation
import Testing

/// Size options have upper bounds (issue 17, item 5): a value past the bound is a usage
/// error (64) naming the option and the range, before any work starts.
@Suite struct SizeBoundFaultTests {
    @Test(arguments: [
        (["run", "--resamples", "1000001"], "--resamples must be in 0...1000000, got 1000001"),
        (["run", "--resamples", "\(Int.max)"], "--resamples must be in 0...1000000"),
        (["compare", "a", "b", "--resamples", "2000000"], "--resamples must be in 0...1000000, got 2000000"),
        (["compare", "a", "b", "--resamples=-1"], "--resamples must be in 0...1000000, got -1"),
        (["run", "--jobs", "100000"], "--jobs must be at most 1024, got 100000"),
        (["bench", "--allow-debug-build", "--iterations", "1000000000"], "--iterations must be in 1...100000"),
        (["bench", "--allow-debug-build", "--warmup", "1000000000"], "--warmup must be in 0...100000"),
        (["synth", "--out", "/tmp/rial-never", "--count", "1000000"], "count must be at most 999999, got 1000000"),
    ])
    func sizesPastTheirBoundAreUsageErrors(arguments: [String], expected: String) throws {
        let outcome = try CLIRunner.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
    }
}
