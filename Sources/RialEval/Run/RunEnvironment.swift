import Foundation

/// The machine a run or benchmark was measured on.
public struct RunEnvironment: Sendable, Equatable, Codable {
    public var os: String
    public var cpu: String
    public var cores: Int
    public var memoryGiB: Double
    public var swift: String
    public var hostname: String
    /// The instruction set the Swift code was compiled for (`instructionSetOfThisBuild`);
    /// nil in reports written before 2026-12-07, which were all baseline builds.
    public var instructionSet: String?

    enum CodingKeys: String, CodingKey {
        case os, cpu, cores
        case memoryGiB = "memory_gib"
        case swift, hostname
        case instructionSet = "instruction_set"
    }

    /// This process's machine.
    public static func current() -> RunEnvironment {
        let info = ProcessInfo.processInfo
        return RunEnvironment(
            os: info.operatingSystemVersionString, cpu: cpuModel(), cores: info.activeProcessorCount,
            memoryGiB: (Double(info.physicalMemory) / 1_073_741_824 * 10).rounded() / 10,
            swift: compilerVersion, hostname: info.hostName, instructionSet: instructionSetOfThisBuild)
    }

    /// What the Swift code of this binary was compiled for: scripts/lib/toolchain.sh
    /// compiles for the x86-64-v3 level (`-target-cpu haswell`) on a CPU that has it and
    /// says so with `-DRIAL_X86_64_V3`; a plain `swift build` targets the toolchain's
    /// default. Timings of the two differ (wider SIMD); scores do not.
    static var instructionSetOfThisBuild: String {
        #if RIAL_X86_64_V3
            "x86-64-v3 (AVX2, FMA)"
        #elseif arch(x86_64)
            "x86-64 baseline (SSE2)"
        #elseif arch(arm64)
            "arm64"
        #else
            "unknown"
        #endif
    }

    /// `cpu`, followed by the instruction set when the report records it: the machine a
    /// timing was measured on, as reports print it.
    public var machineDescription: String {
        instructionSet.map { "\(cpu), code built for \($0)" } ?? cpu
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
