import Foundation
import RialCodecs
import RialDetection
import RialMedia

/// The files and facts of one capture, as named on the command line or in a manifest.
public struct CaptureFiles: Sendable, Equatable {
    public var image: String
    public var depth: String?
    /// nil = decided by the content (16-bit gray PNG = millimetres, gzip/zlib = float32, npy/npz).
    public var depthFormat: DepthFormat?
    public var depthWidth: Int?
    public var depthHeight: Int?
    public var depthScale: Double?
    public var right: String?
    public var focalPx: Double?
    public var baselineMm: Double?
    public var attestation: AttestationEvidence
    public var platform: String?
    public var deviceModel: String?
    /// The time the capture time is checked against (manifest `captured_at`, upload time).
    public var referenceTime: Date?
    /// A phone's detection payload (JSON).
    public var payload: String?
    /// Evaluate a JPEG that libjpeg decoded with warnings ("Corrupt JPEG data: bad
    /// Huffman code", extraneous bytes) and report them in `LoadedCapture.jpegWarnings`,
    /// instead of refusing it. A truncated JPEG is refused either way.
    public var acceptJPEGWarnings: Bool

    public init(
        image: String, depth: String? = nil, depthFormat: DepthFormat? = nil, depthWidth: Int? = nil,
        depthHeight: Int? = nil, depthScale: Double? = nil, right: String? = nil, focalPx: Double? = nil,
        baselineMm: Double? = nil, attestation: AttestationEvidence = .missing, platform: String? = nil,
        deviceModel: String? = nil, referenceTime: Date? = nil, payload: String? = nil,
        acceptJPEGWarnings: Bool = false
    ) {
        self.image = image
        self.depth = depth
        self.depthFormat = depthFormat
        self.depthWidth = depthWidth
        self.depthHeight = depthHeight
        self.depthScale = depthScale
        self.right = right
        self.focalPx = focalPx
        self.baselineMm = baselineMm
        self.attestation = attestation
        self.platform = platform
        self.deviceModel = deviceModel
        self.referenceTime = referenceTime
        self.payload = payload
        self.acceptJPEGWarnings = acceptJPEGWarnings
    }
}

/// A capture read from disk, with the cost of reading it.
public struct LoadedCapture: Sendable {
    public var input: CaptureInput
    /// SHA-256 (hex) of each file read, by role (`image`, `depth`, `right`, `payload`).
    public var sha256: [String: String]
    /// Milliseconds: `decode` (image, depth, right, payload), `sha256` (the image file,
    /// hashed on another thread during the image decode, so not part of `decode`'s wall
    /// time). When the row methods ran during the decode (`load(_:analyzingRowsWith:)`),
    /// `decode_and_row_methods` replaces `decode`: the two overlap and are not separable.
    public var latencyMs: [String: Double]
    /// Non-fatal decoder remarks (EXIF problems, tolerated libjpeg warnings), each
    /// `FILE: remark`.
    public var warnings: [String]
    /// The libjpeg warnings of the image, when `CaptureFiles.acceptJPEGWarnings` let a
    /// damaged JPEG through (empty for a clean file): the sample is to be flagged.
    public var jpegWarnings: [String]
    /// The row methods' outcomes, when they ran during the decode: pass them to
    /// `CaptureAnalyzer.analyze(_:profile:concurrent:rows:)`.
    public var rows: RowAnalysis?
}

/// Why a capture could not be read: one message naming the file and the problem.
public struct CaptureLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Reads the files of a capture into a `CaptureInput`.
public enum CaptureLoader {
    /// Reads, hashes and decodes every file of `files`.
    ///
    /// With `analyzer`, the image is decoded last and `analyzer.analyzeRows` runs its
    /// row methods on it while it decodes (`concurrent`: one task per method); the
    /// outcomes are in `rows`. This is the low-latency path for one capture; a dataset
    /// run that keeps every core busy with whole samples does not need it.
    ///
    /// - Throws: `CaptureLoadError` naming the first file that cannot be used (the files
    ///   are read image, depth, right, payload; the image is decoded after them): a
    ///   depth map whose shape does not fit the image's (`DepthAlignment`, checked on
    ///   the image header before the decode), and a JPEG that decodes with libjpeg
    ///   warnings unless `files.acceptJPEGWarnings` (as a truncated one always is).
    public static func load(
        _ files: CaptureFiles, analyzingRowsWith analyzer: CaptureAnalyzer? = nil,
        concurrent: Bool = true
    ) throws(CaptureLoadError) -> LoadedCapture {
        let clock = ContinuousClock()
        var latency: [String: Double] = [:], hashes: [String: String] = [:], warnings: [String] = []
        var jpegWarnings: [String] = []

        let decodeStart = clock.now
        let imageData = try read(files.image)
        // The image file is hashed on another thread while the files are decoded.
        let pendingDigest = SHA256Digest.Pending(imageData)
        let input: CaptureInput
        var rows: RowAnalysis?
        do throws(CaptureLoadError) {
            let (depth, right, payload) = try loadCompanions(files, hashes: &hashes)
            if let depth, let depthPath = files.depth,
                let size = try? ImageReader.storedSize(data: imageData, source: files.image),
                let misfit = DepthAlignment.misfit(
                    depthWidth: depth.width, depthHeight: depth.height, imageWidth: size.width,
                    imageHeight: size.height, image: files.image)
            {
                throw CaptureLoadError(path: depthPath, misfit)
            }
            let loaded: LoadedImage
            do {
                if let analyzer {
                    (loaded, rows) = try ImageReader.read(data: imageData, source: files.image) { image in
                        analyzer.analyzeRows(image, depth: depth, payload: payload, concurrent: concurrent)
                    }
                } else {
                    loaded = try ImageReader.read(data: imageData, source: files.image)
                }
            } catch { throw failure(error, path: files.image) }
            if !loaded.jpegWarnings.isEmpty {
                guard files.acceptJPEGWarnings else {
                    throw CaptureLoadError(
                        path: files.image,
                        "corrupt JPEG: \(loaded.jpegWarnings.joined(separator: "; ")) (libjpeg decoded damaged data; "
                            + "--accept-jpeg-warnings evaluates it flagged)")
                }
                jpegWarnings = loaded.jpegWarnings
                warnings += loaded.jpegWarnings.map { "\(files.image): JPEG decoded with damage: \($0)" }
            }
            warnings += loaded.exif?.warnings.map { "\(files.image): EXIF: \($0)" } ?? []
            input = CaptureInput(
                image: loaded.image, depth: depth, right: right,
                focalPx: files.focalPx, baselineMm: files.baselineMm, attestation: files.attestation,
                platform: files.platform, captureTime: loaded.exif.flatMap(captureTime),
                referenceTime: files.referenceTime,
                deviceModel: files.deviceModel, exifModel: loaded.exif?.model, payload: payload)
        } catch {
            _ = pendingDigest.wait()
            throw error
        }
        let digest = pendingDigest.wait()
        hashes["image"] = digest.hex
        latency[analyzer == nil ? "decode" : "decode_and_row_methods"] = max(0, (clock.now - decodeStart).milliseconds)
        latency["sha256"] = max(0, digest.duration.milliseconds)
        var withHash = input
        withHash.imageSHA256 = digest.hex
        return LoadedCapture(
            input: withHash, sha256: hashes, latencyMs: latency, warnings: warnings, jpegWarnings: jpegWarnings,
            rows: rows)
    }

    /// Reads the depth map, the second view and the payload of `files`, hashing each.
    private static func loadCompanions(_ files: CaptureFiles, hashes: inout [String: String])
        throws(CaptureLoadError) -> (depth: DepthMap?, right: Image8?, payload: DetectionPayload?)
    {
        var depth: DepthMap?
        if let path = files.depth {
            let data = try read(path)
            hashes["depth"] = SHA256Digest.hash(data)
            guard let format = files.depthFormat ?? inferDepthFormat(data) else {
                throw CaptureLoadError(
                    path: path,
                    "the depth format cannot be told from the content (raw float32?); give it (--depth-format)")
            }
            do {
                depth = try DepthReader.read(
                    data: data, format: format, width: files.depthWidth, height: files.depthHeight,
                    scale: files.depthScale, source: path)
            } catch { throw failure(error, path: path) }
        }

        var right: Image8?
        if let path = files.right {
            let data = try read(path)
            hashes["right"] = SHA256Digest.hash(data)
            do { right = try ImageReader.read(data: data, source: path).image } catch {
                throw failure(error, path: path)
            }
        }

        var payload: DetectionPayload?
        if let path = files.payload {
            let data = try read(path)
            hashes["payload"] = SHA256Digest.hash(data)
            do { payload = try DetectionPayload.parse(data) } catch {
                throw CaptureLoadError(path: path, "detection payload: \(error.description)")
            }
        }
        return (depth, right, payload)
    }

    /// The depth format a file's content shows, or nil (raw float32 has no signature).
    public static func inferDepthFormat(_ data: Data) -> DepthFormat? {
        switch SniffedFormat.sniff(data) {
        case .png: return .u16PngMm
        case .npy: return .npy
        case .npz: return .npz
        case .gzip: return .f32leGzip
        case .zlib: return .f32leZlib
        case .jpeg, .unknown: return nil
        }
    }

    /// EXIF `DateTimeOriginal` (`YYYY:MM:DD HH:MM:SS`) with `OffsetTimeOriginal`
    /// (`+HH:MM`); without an offset the time is taken as UTC.
    public static func captureTime(_ exif: ExifMetadata) -> Date? {
        guard let text = exif.dateTimeOriginal ?? exif.dateTime else { return nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        guard let local = formatter.date(from: text.trimmingCharacters(in: .whitespaces.union(.controlCharacters)))
        else {
            return nil
        }
        guard let offset = exif.offsetTimeOriginal, let seconds = offsetSeconds(offset) else { return local }
        return local.addingTimeInterval(-Double(seconds))
    }

    static func offsetSeconds(_ text: String) -> Int? {
        let t = Array(text.trimmingCharacters(in: .whitespaces.union(.controlCharacters)).utf8)
        guard t.count == 6, t[0] == UInt8(ascii: "+") || t[0] == UInt8(ascii: "-"), t[3] == UInt8(ascii: ":"),
            let h = Int(String(decoding: t[1...2], as: UTF8.self)),
            let m = Int(String(decoding: t[4...5], as: UTF8.self)), h <= 14, m < 60
        else { return nil }
        return (t[0] == UInt8(ascii: "-") ? -1 : 1) * (h * 3600 + m * 60)
    }

    static func read(_ path: String) throws(CaptureLoadError) -> Data {
        do { return try MediaFile.read(path) } catch { throw failure(error, path: path) }
    }

    static func failure(_ error: any Error, path: String) -> CaptureLoadError {
        if let media = error as? MediaError { return CaptureLoadError(path: media.source, media.detail) }
        return CaptureLoadError(path: path, "\(error)")
    }
}
