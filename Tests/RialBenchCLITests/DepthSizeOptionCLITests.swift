import Foundation
import Testing

/// `--depth-width` and `--depth-height` (analyze, inspect; `--width`/`--height` in inspect)
/// have the bounds of a manifest's depth size: each side at most 65536 and the grid at most
/// `DepthFormat.maxPixels` (10^8) pixels. A value past them is a usage error (64) naming the option, before any file
/// is read.
@Suite struct DepthSizeOptionCLITests {
    @Test(arguments: [
        (["inspect", "d.bin", "--depth-width", "65537"], "--depth-width must be at most 65536, got 65537"),
        (["inspect", "d.bin", "--width", "1000000"], "--depth-width must be at most 65536, got 1000000"),
        (["inspect", "d.bin", "--depth-height", "65537"], "--depth-height must be at most 65536, got 65537"),
        (["inspect", "d.bin", "--height", "\(Int.max)"], "--depth-height must be at most 65536, got \(Int.max)"),
        (
            ["analyze", "i.jpg", "--depth", "d.bin", "--depth-width", "\(Int.max)", "--depth-height", "\(Int.max)"],
            "--depth-width must be at most 65536"
        ),
        (
            ["inspect", "d.bin", "--depth-width", "65536", "--depth-height", "65536"],
            "--depth-width x --depth-height must be at most 100000000 pixels, got 65536x65536"
        ),
        (
            ["analyze", "i.jpg", "--depth", "d.bin", "--depth-width", "20000", "--depth-height", "5001"],
            "--depth-width x --depth-height must be at most 100000000 pixels, got 20000x5001"
        ),
        (
            ["inspect", "d.bin", "--width", "50001", "--height", "2000"],
            "--depth-width x --depth-height must be at most 100000000 pixels, got 50001x2000"
        ),
    ])
    func sizesPastTheirBoundAreUsageErrors(arguments: [String], expected: String) throws {
        let outcome = try CLIRunner.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains(expected), "\(arguments): \(outcome.stderr)")
    }

    /// Sizes at the bounds pass the option check (the missing file is what fails).
    @Test(arguments: [
        ["inspect", "no-such-depth.bin", "--depth-width", "65536", "--depth-height", "1"],
        ["inspect", "no-such-depth.bin", "--depth-width", "10000", "--depth-height", "10000"],
        ["inspect", "no-such-depth.bin", "--depth-width", "65536"],
        ["inspect", "no-such-depth.bin", "--depth-width", "1", "--depth-height", "1"],
    ])
    func sizesWithinTheBoundsAreAccepted(_ arguments: [String]) throws {
        let outcome = try CLIRunner.run(arguments)
        #expect(outcome.status != 64, "\(arguments): \(outcome.stderr)")
        #expect(outcome.stderr.contains("no-such-depth.bin"), "\(arguments): \(outcome.stderr)")
    }

    /// A 2 x 2 grid read with its size given still reads (no size is refused that fits).
    @Test func aSmallRawGridStillReads() throws {
        let folder = try Fixtures.makeTemporaryFolder("rial-depth-size")
        let depth = folder.appendingPathComponent("d.f32").path
        let values: [Float] = [1, 2, 3, 4]
        try values.withUnsafeBytes { Data($0) }.write(to: URL(fileURLWithPath: depth))
        let outcome = try CLIRunner.run([
            "inspect", depth, "--depth-format", "f32le", "--depth-width", "2", "--depth-height", "2",
        ])
        #expect(outcome.status == 0, "\(outcome.stderr)")
    }
}
