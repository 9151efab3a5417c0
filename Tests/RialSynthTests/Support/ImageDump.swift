import Foundation
import RialMedia

/// Writes images for manual inspection when `RIAL_SYNTH_DUMP` names a folder
/// (binary PPM for RGB, 16-bit PGM in millimetres for depth). No-op otherwise.
enum ImageDump {
    static var folder: String? { ProcessInfo.processInfo.environment["RIAL_SYNTH_DUMP"] }

    static func write(_ image: Image8, name: String) {
        guard let folder else { return }
        var data = Data("P6\n\(image.width) \(image.height)\n255\n".utf8)
        if image.channels == 3 {
            data.append(contentsOf: image.samples)
        } else {
            for v in image.samples { data.append(contentsOf: [v, v, v]) }
        }
        try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".ppm"))
    }

    static func write(_ depth: DepthMap, name: String) {
        guard let folder else { return }
        var data = Data("P5\n\(depth.width) \(depth.height)\n65535\n".utf8)
        for m in depth.metres {
            let v = m.isFinite ? UInt16(clamping: Int((m * 1000).rounded())) : 0
            data.append(contentsOf: [UInt8(v >> 8), UInt8(v & 0xFF)])
        }
        try? data.write(to: URL(fileURLWithPath: folder).appendingPathComponent(name + ".pgm"))
    }
}

/// Prints measured values when `RIAL_SYNTH_VERBOSE` is set (for reports); silent otherwise.
enum Measurement {
    static func log(_ text: @autoclosure () -> String) {
        if ProcessInfo.processInfo.environment["RIAL_SYNTH_VERBOSE"] != nil { print("[measure] " + text()) }
    }
}
