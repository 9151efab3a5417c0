import Foundation

/// Runs the built `rial-bench` executable, which SwiftPM places beside the test bundle.
struct CLIRunner {
    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executableURL: URL {
        // argv[0] is .build/<config>/rial-benchPackageTests.xctest (Linux) or inside it (macOS).
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("rial-bench").path),
              dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("rial-bench")
    }

    static func run(_ arguments: [String], currentDirectory: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = executableURL
        process.arguments = arguments
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting so a full pipe buffer cannot deadlock the child.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus,
                       stdout: String(decoding: outData, as: UTF8.self),
                       stderr: String(decoding: errData, as: UTF8.self))
    }
}
