import RialMedia
import Testing

/// The fuzz checks both binary column files of a run folder share
/// (`aggregation-inputs.bin`, `metric-columns.bin`): a parser given bad bytes refuses them
/// in one line that starts with the file's path, and never crashes.
enum ColumnFileFuzz {
    /// Every truncation of `valid` is refused naming `path`, and so is one trailing byte.
    static func truncationsAreRefused(_ valid: [UInt8], path: String, refusal: ([UInt8]) -> String?) {
        for length in 0..<valid.count {
            let message = refusal(Array(valid[0..<length]))
            #expect(message?.hasPrefix("\(path): ") == true, "\(length): \(message ?? "accepted")")
        }
        #expect(refusal(valid + [0])?.contains("1 bytes after its last column") == true)
    }

    /// 400 trials: half random bytes (every other one behind the file's 8-byte `magic` and
    /// version 1, so the parser gets past the header), half `valid` with 1 to 4 random bytes
    /// changed. Each is refused in one line naming `path` or reads as a file of the same
    /// layout. Returns how many were refused.
    static func randomBytesAreRefusedOrRead(
        valid: [UInt8], magic: String, path: String, seed: UInt64, refusal: ([UInt8]) -> String?
    ) -> Int {
        var random = SplitMix64(seed: seed)
        var refused = 0
        for trial in 0..<400 {
            var bytes: [UInt8]
            if trial % 2 == 0 {
                bytes = (0..<Int(random.next() % 300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                if trial % 4 == 0 && bytes.count >= 16 {
                    bytes.replaceSubrange(0..<12, with: Array(magic.utf8) + [1, 0, 0, 0])
                }
            } else {
                bytes = valid
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    bytes[Int(random.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: random.next())
                }
            }
            if let message = refusal(bytes) {
                refused += 1
                #expect(message.hasPrefix("\(path): "), "\(message)")
                #expect(!message.contains("\n"))
            }
        }
        return refused
    }
}
