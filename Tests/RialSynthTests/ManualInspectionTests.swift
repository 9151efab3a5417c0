import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// Manual tools, not part of the suite's checks: they run only when their environment
/// variable is set.
///
/// - `RIAL_SYNTH_DUMP=/tmp/dir`: renders a few captures of every class and writes them
///   there (PPM / 16-bit PGM) for viewing (`RIAL_SYNTH_DUMP_MIRROR=folder`: with the
///   data mirror's textures).
/// - `RIAL_SYNTH_BENCH=1`: times 1600 x 1200 captures with depth, per class and per
///   stage, in thread CPU time (`RIAL_SYNTH_BENCH_CLASS=lcd_screen` for one class).
/// - `RIAL_SYNTH_BENCH_PARALLEL=N`: N captures on two threads, wall time.
/// Build them in release: `swift build -c release --scratch-path .build-synth-rel
/// -Xswiftc -enable-testing --build-tests`, then `swift test -c release ... --skip-build
/// --filter ManualInspectionTests`.
@Suite struct ManualInspectionTests {
    @Test(.enabled(if: ImageDump.folder != nil)) func dumpSamples() {
        let env = ProcessInfo.processInfo.environment
        let count = Int(env["RIAL_SYNTH_DUMP_COUNT"] ?? "") ?? 3
        let width = Int(env["RIAL_SYNTH_DUMP_WIDTH"] ?? "") ?? 800
        let height = width * 3 / 4
        // `RIAL_SYNTH_DUMP_MIRROR=/path/to/real` renders with the mirror textures.
        let textures =
            env["RIAL_SYNTH_DUMP_MIRROR"].flatMap {
                try? SynthTextureLibrary.load(mirror: URL(fileURLWithPath: $0)).textures
            } ?? []
        let classes = (env["RIAL_SYNTH_DUMP_CLASSES"] ?? "").split(separator: ",").compactMap {
            SynthClass(rawValue: String($0))
        }
        for c in classes.isEmpty ? SynthClass.allCases : classes {
            for i in 0..<count {
                let capture = SynthGenerator.generate(
                    index: i, seed: 2024, class: c, width: width, height: height,
                    withSecondView: env["RIAL_SYNTH_DUMP_RIGHT"] != nil, textures: textures)
                let name = "\(c.rawValue)_\(i)"
                ImageDump.write(capture.image, name: name)
                ImageDump.write(capture.depth, name: name + "_depth")
                if let r = capture.right { ImageDump.write(r, name: name + "_right") }
                let json = try! JSONEncoder().encode(capture.parameters)
                try? json.write(to: URL(fileURLWithPath: ImageDump.folder!).appendingPathComponent(name + ".json"))
            }
        }
    }

    /// CPU time of the calling thread, s (immune to other processes on the machine).
    static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Throughput on two threads: `RIAL_SYNTH_BENCH_PARALLEL=N` captures (classes round
    /// robin, 1600 x 1200 with depth, no second view).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["RIAL_SYNTH_BENCH_PARALLEL"] != nil))
    func parallelThroughput() {
        let count = Int(ProcessInfo.processInfo.environment["RIAL_SYNTH_BENCH_PARALLEL"] ?? "") ?? 40
        _ = SynthGenerator.generate(index: 0, seed: 1, class: .printedPaper, width: 256, height: 192)
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            var i = worker
            while i < count {
                _ = SynthGenerator.generate(
                    index: i, seed: 2025, class: SynthClass.allCases[i % 4], width: 1600, height: 1200)
                i += 2
            }
        }
        let d = clock.now - start
        let seconds = Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
        print(
            String(
                format: "%d captures on 2 threads: %.2f s (%.3f s per capture; 1000 captures: %.0f s)",
                count, seconds, seconds / Double(count), seconds / Double(count) * 1000))
    }

    @Test(.enabled(if: ProcessInfo.processInfo.environment["RIAL_SYNTH_BENCH"] != nil)) func benchmark() {
        let clock = ContinuousClock()
        // Warm-up: procedural texture bank and tables.
        _ = SynthGenerator.generate(index: 0, seed: 1, class: .realScene, width: 256, height: 192)
        var lines: [String] = []
        let only = ProcessInfo.processInfo.environment["RIAL_SYNTH_BENCH_CLASS"].flatMap { SynthClass(rawValue: $0) }
        let classes = only.map { [$0] } ?? SynthClass.allCases
        for c in classes {
            var times: [Double] = [], cpu: [Double] = []
            for i in 0..<8 {
                let start = clock.now, cpuStart = Self.threadCPUTime()
                _ = SynthGenerator.generate(index: i, seed: 99, class: c, width: 1600, height: 1200)
                let d = clock.now - start
                cpu.append(Self.threadCPUTime() - cpuStart)
                times.append(Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18)
            }
            times.sort()
            cpu.sort()
            lines.append(
                "\(c.rawValue): wall median \(String(format: "%.3f", times[times.count / 2])) s max \(String(format: "%.3f", times.last!)) s; thread CPU median \(String(format: "%.3f", cpu[cpu.count / 2])) s max \(String(format: "%.3f", cpu.last!)) s"
            )
        }
        for c in classes {
            let cpuStart = Self.threadCPUTime()
            for i in 0..<4 {
                _ = SynthGenerator.generate(
                    index: i, seed: 99, class: c, width: 1600, height: 1200, withSecondView: true)
            }
            lines.append(
                "\(c.rawValue) with second view: mean thread CPU \(String(format: "%.3f", (Self.threadCPUTime() - cpuStart) / 4)) s"
            )
        }
        print(lines.joined(separator: "\n"))
        // Stage breakdown.
        for c in classes {
            for i in 0..<3 {
                let p = SynthGenerator.sampleParameters(index: i, seed: 99, class: c, width: 1600, height: 1200)
                _ = clock
                var t0 = Self.threadCPUTime()
                let scene = SynthGenerator.buildScene(p, textures: [])
                let tScene = Self.threadCPUTime() - t0
                t0 = Self.threadCPUTime()
                let gains = p.display?.flicker.map { RollingShutter.rowGains($0, rows: p.height) }
                let renderer = SceneRenderer(
                    scene: scene, view: CameraView(origin: .zero, width: 1600, height: 1200, focal: p.focalPx),
                    rowGains: gains)
                let tSetup = Self.threadCPUTime() - t0
                t0 = Self.threadCPUTime()
                let radiance = renderer.render()
                let tRender = Self.threadCPUTime() - t0
                t0 = Self.threadCPUTime()
                var rng = SynthRandom(seed: 1)
                _ = CameraPipeline.develop(radiance, sensor: p.sensor, rng: &rng)
                let tDevelop = Self.threadCPUTime() - t0
                t0 = Self.threadCPUTime()
                let samples = renderer.depthSamples(columns: 256, rows: 192, sub: 3)
                _ = DepthSensor.measure(samples: samples, parameters: p.depthSensor, rng: &rng)
                let tDepth = Self.threadCPUTime() - t0
                print(
                    String(
                        format: "%@ %d %@: scene %.3f setup %.3f render %.3f develop %.3f depth %.3f", c.rawValue, i,
                        p.subjectKind.rawValue, tScene, tSetup, tRender, tDevelop, tDepth))
            }
        }
    }
}
