import Dispatch
import Foundation

extension SHA256Digest {
    /// A SHA-256 digest computed on another thread while the caller does other work:
    /// a capture's image file is hashed while it is decoded (the digest needs the bytes,
    /// not the pixels), so the hash costs no wall time on a machine with a free core.
    ///
    /// `init` starts `SHA256Digest.hash(data)` on a global queue; `wait()` blocks until it
    /// is done and returns the digest (lowercase hex) and how long the hashing took.
    public final class Pending: @unchecked Sendable {
        private let group = DispatchGroup()
        // Written once by the hashing task before `group.leave()`, read after `group.wait()`.
        private var digest = ""
        private var duration: Duration = .zero

        /// Starts hashing `data`.
        public init(_ data: Data) {
            group.enter()
            DispatchQueue.global(qos: .userInitiated).async { [self] in
                let clock = ContinuousClock()
                let start = clock.now
                digest = SHA256Digest.hash(data)
                duration = clock.now - start
                group.leave()
            }
        }

        /// The digest, waiting for it if needed; `duration` is the hashing time alone.
        public func wait() -> (hex: String, duration: Duration) {
            group.wait()
            return (digest, duration)
        }
    }
}
