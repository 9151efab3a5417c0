import Foundation

/// The machine a run or benchmark was measured on.
public struct RunEnvironment: Sendable, Equatable, Codable {
    public var os: String
    public var cpu: String
    public var cores: Int
    public var memoryGiB: Double
    public var swift: String
    public var hostname: String

    enum CodingKeys: String, CodingKey {
        case os, cpu, cores
        case memoryGiB = "memory_gib"
        case swift, hostname
    }

    /// This process's machine.
    public static func current() -> RunEnvironment {
        let info = ProcessInfo.processInfo
        return RunEnvironment(
            os: info.operatingSystemVersionString, cpu: cpuModel(), cores: info.activeProcessorCount,
            memoryGiB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            swift: compilerVersion, hostname: info.hostName)
    }

    /// The compiler that built this binary.
    static var compilerVersion: String {
        #if compiler(>=6.3)
            "Swift 6.3 or later"
        #elseif compiler(>=6.2)
            "Swift 6.2"
        #elseif compiler(>=6.1)
            "Swift 6.1"
        #else
            "Swift 6.0"
        #endif
    }

    /// `model name` of /proc/cpuinfo on Linux, else the architecture.
    static func cpuModel() -> String {
        if let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("model name") }),
            let value = line.split(separator: ":", maxSplits: 1).last
        {
            return value.trimmingCharacters(in: .whitespaces)
        }
        #if arch(x86_64)
            return "x86_64"
        #elseif arch(arm64)
            return "arm64"
        #else
            return "unknown"
        #endif
    }

    /// `git rev-parse HEAD` in the current directory, or nil outside a repository.
    public static func gitCommit() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "HEAD"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.count == 40 ? text : nil
    }
}
