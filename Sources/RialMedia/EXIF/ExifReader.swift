import Foundation

/// Reads `ExifMetadata` from a JPEG's APP1 `Exif\0\0` segment.
///
/// A small parser of our own: no maintained EXIF library for Swift builds on Linux
/// here (ImageIO is Apple-only), and we need only a dozen tags. It reads IFD0, the
/// Exif sub-IFD (pointer tag 0x8769) and the GPS IFD (pointer tag 0x8825), both
/// pointers taken from IFD0; IFD1 (thumbnail) and maker notes are not read.
///
/// Error policy, from the outside in:
/// - The JPEG marker structure up to the EXIF segment must be readable: missing SOI,
///   a segment length below 2 or running past the end, a second SOI, or data ending
///   before SOS throw `MediaError` `.corrupt`. Bytes between segments that are not a
///   marker are skipped as libjpeg does (`next_marker`), with a warning.
/// - No `Exif\0\0` APP1 before SOS (or EOI): `nil`.
/// - A TIFF header that is unreadable (too short, byte order mark not `II`/`MM`, magic
///   not 42) or an IFD0 offset outside the block: metadata with every field `nil` and
///   a warning. The JPEG itself may still decode.
/// - A malformed field (wrong type, count or value past the end, byte size overflow,
///   zero denominator, orientation outside 1...8, a sub-IFD pointer into an IFD already
///   read) is skipped with a warning; other fields are still read.
/// - An IFD whose entry count does not fit in the block is read as far as it fits.
///
/// Field types follow EXIF 2.32 (text ASCII, Orientation SHORT, PixelX/YDimension SHORT
/// or LONG, GPS coordinates RATIONAL), plus what real writers produce and ExifTool
/// accepts: EXIF 3.0 UTF-8 (type 129) text, non-negative SLONG dimensions (exiv2, e.g.
/// Shotwell), SRATIONAL coordinates (some phones, e.g. HMD Nokia 8.3).
///
/// When a tag occurs twice the first occurrence wins; IFD0 is read before the Exif IFD.
/// Nothing in the reader traps on any input.
/// - Complexity: O(size of the EXIF segment) plus one step per marker segment before
///   it (segments are skipped by their length); the scan data is never read.
public enum ExifReader {
    /// The six bytes that open an EXIF APP1 payload.
    static let exifSignature: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// EXIF metadata of an in-memory JPEG.
    ///
    /// Stops at the first APP1 segment that starts with `Exif\0\0`; everything after
    /// it (including a truncated scan) is not looked at.
    /// - Parameters:
    ///   - data: the JPEG bytes, starting at SOI.
    ///   - source: file path or label named in errors.
    /// - Returns: `nil` when the JPEG has no EXIF segment before SOS.
    /// - Throws: `MediaError` `.corrupt` when the marker structure before the EXIF
    ///   segment cannot be followed.
    public static func read(jpeg data: Data, source: String = inMemorySource) throws -> ExifMetadata? {
        let located = try locateExifPayload(inJPEG: data, source: source)
        guard let payload = located.payload else { return nil }
        var metadata = read(tiffBytes: payload)
        metadata.warnings.insert(contentsOf: located.warnings, at: 0)
        return metadata
    }

    /// EXIF metadata of the JPEG file at `path`.
    /// - Throws: `MediaError` `.notFound`/`.unreadable` from reading the file, `.corrupt`
    ///   as `read(jpeg:source:)`, all naming `path`.
    public static func read(fileAt path: String) throws -> ExifMetadata? {
        try read(jpeg: MediaFile.read(path), source: path)
    }

    /// Parses a bare TIFF block (the APP1 payload after `Exif\0\0`). Never throws: an
    /// unreadable header yields empty metadata with a warning.
    public static func read(tiff data: Data) -> ExifMetadata {
        read(tiffBytes: [UInt8](data))
    }

    static func read(tiffBytes bytes: [UInt8]) -> ExifMetadata {
        switch TIFFBlock.parseHeader(bytes) {
        case .failure(let reason):
            return ExifMetadata(warnings: [reason.description])
        case .success(let (block, ifd0)):
            var parser = ExifIFDParser(block: block)
            parser.run(ifd0Offset: ifd0)
            return parser.metadata
        }
    }

    /// Walks the JPEG markers from SOI and returns the payload of the first EXIF APP1
    /// segment after its 6-byte signature, or `nil` when SOS or EOI comes first.
    ///
    /// Markers without a length (TEM 0x01, RST0-7 0xD0-0xD7) are stepped over; fill
    /// bytes 0xFF before a marker are skipped; other bytes outside a segment are
    /// discarded with a warning, like libjpeg.
    static func locateExifPayload(inJPEG data: Data, source: String) throws
        -> (payload: [UInt8]?, warnings: [String])
    {
        try data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) throws -> ([UInt8]?, [String]) in
            let b = raw.bindMemory(to: UInt8.self)
            let n = b.count
            guard n >= 2, b[0] == 0xFF, b[1] == 0xD8 else {
                throw MediaError(
                    .corrupt, source: source,
                    "not a JPEG: does not start with the SOI marker FF D8")
            }
            var warnings: [String] = []
            var p = 2
            while true {
                // libjpeg next_marker: discard non-0xFF bytes, skip fill bytes, and treat
                // FF 00 (stuffing outside a scan) as discarded data too.
                var discarded = 0
                var marker: UInt8 = 0
                var markerOffset = p
                while true {
                    while p < n && b[p] != 0xFF {
                        p += 1
                        discarded += 1
                    }
                    markerOffset = p
                    while p < n && b[p] == 0xFF { p += 1 }
                    guard p < n else {
                        throw MediaError(
                            .corrupt, source: source,
                            "JPEG ends at byte \(n) before the start-of-scan marker; the file is truncated")
                    }
                    marker = b[p]
                    p += 1
                    if marker != 0x00 { break }
                    discarded += 2
                }
                if discarded > 0 {
                    warnings.append(
                        "JPEG: \(discarded) extraneous bytes before marker FF\(TIFFHex.byte(marker)) at offset \(markerOffset)"
                    )
                }
                switch marker {
                case 0x01, 0xD0...0xD7:
                    continue
                case 0xD8:
                    throw MediaError(
                        .corrupt, source: source,
                        "second SOI marker at offset \(markerOffset); the JPEG structure is invalid")
                case 0xD9, 0xDA:
                    return (nil, warnings)
                default:
                    guard p + 2 <= n else {
                        throw MediaError(
                            .corrupt, source: source,
                            "JPEG ends inside the length of segment FF\(TIFFHex.byte(marker)) at offset \(markerOffset); the file is truncated"
                        )
                    }
                    let length = Int(b[p]) << 8 | Int(b[p + 1])
                    guard length >= 2 else {
                        throw MediaError(
                            .corrupt, source: source,
                            "segment FF\(TIFFHex.byte(marker)) at offset \(markerOffset) has length \(length), less than 2"
                        )
                    }
                    guard p + length <= n else {
                        throw MediaError(
                            .corrupt, source: source,
                            "segment FF\(TIFFHex.byte(marker)) at offset \(markerOffset) declares \(length) bytes but only \(n - p) remain; the file is truncated"
                        )
                    }
                    let payload = (p + 2)..<(p + length)
                    if marker == 0xE1, payload.count >= 6,
                        b[payload.lowerBound..<(payload.lowerBound + 6)].elementsEqual(exifSignature)
                    {
                        return (Array(b[(payload.lowerBound + 6)..<payload.upperBound]), warnings)
                    }
                    p += length
                }
            }
        }
    }
}

/// Reads the fields of interest from IFD0, the Exif IFD and the GPS IFD of one block.
struct ExifIFDParser {
    let block: TIFFBlock
    var metadata = ExifMetadata()
    /// IFD offsets already read, so a pointer back into one cannot loop.
    private var visited = Set<Int>()

    init(block: TIFFBlock) { self.block = block }

    mutating func run(ifd0Offset: Int) {
        guard let ifd0 = entries(at: ifd0Offset, name: "IFD0") else { return }
        var exifPointer: Int?
        var gpsPointer: Int?
        for e in ifd0 {
            switch e.tag {
            case 0x010F: setText(\.make, e, "IFD0", "Make")
            case 0x0110: setText(\.model, e, "IFD0", "Model")
            case 0x0131: setText(\.software, e, "IFD0", "Software")
            case 0x0132: setText(\.dateTime, e, "IFD0", "DateTime")
            case 0x0112: setOrientation(e)
            case 0x8769: if exifPointer == nil { exifPointer = pointer(e, "ExifIFDPointer") }
            case 0x8825: if gpsPointer == nil { gpsPointer = pointer(e, "GPSInfoIFDPointer") }
            default: break
            }
        }
        if let offset = exifPointer, let exif = entries(at: offset, name: "Exif IFD") {
            for e in exif {
                switch e.tag {
                case 0x9003: setText(\.dateTimeOriginal, e, "Exif IFD", "DateTimeOriginal")
                case 0x9011: setText(\.offsetTimeOriginal, e, "Exif IFD", "OffsetTimeOriginal")
                case 0xA002: setDimension(\.pixelXDimension, e, "PixelXDimension")
                case 0xA003: setDimension(\.pixelYDimension, e, "PixelYDimension")
                case 0xA434: setText(\.lensModel, e, "Exif IFD", "LensModel")
                default: break
                }
            }
        }
        if let offset = gpsPointer, let gps = entries(at: offset, name: "GPS IFD") {
            readGPS(gps)
        }
    }

    // MARK: IFDs

    private mutating func entries(at offset: Int, name: String) -> [TIFFEntry]? {
        guard visited.insert(offset).inserted else {
            metadata.warnings.append("\(name) at offset \(offset) was already read (IFD loop); skipped")
            return nil
        }
        return block.entries(ofIFDAt: offset, name: name, warnings: &metadata.warnings)
    }

    /// A sub-IFD offset: LONG or IFD type, count 1.
    private mutating func pointer(_ e: TIFFEntry, _ name: String) -> Int? {
        guard let v = value(e, "IFD0", name, types: [.long, .ifd]) else { return nil }
        return block.uint32(at: v.offset).map { Int($0) }
    }

    // MARK: Field decoding

    private func label(_ ifd: String, _ tag: UInt16, _ name: String) -> String {
        "\(ifd) tag \(TIFFHex.tag(tag)) \(name)"
    }

    /// Locates the value of `e` and checks its type is one of `types` and its count is
    /// at least 1; otherwise records a warning and returns `nil`.
    private mutating func value(
        _ e: TIFFEntry, _ ifd: String, _ name: String,
        types: [TIFFFieldType]
    ) -> TIFFValue? {
        let what = label(ifd, e.tag, name)
        switch block.locate(e) {
        case .failure(let reason):
            metadata.warnings.append("\(what): \(reason); skipped")
            return nil
        case .success(let v):
            guard types.contains(v.type) else {
                let names = types.map(\.name)
                let expected =
                    names.count <= 1
                    ? names.joined()
                    : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
                metadata.warnings.append("\(what): type \(v.type.name), expected \(expected); skipped")
                return nil
            }
            guard v.count >= 1 else {
                metadata.warnings.append("\(what): count is 0; skipped")
                return nil
            }
            return v
        }
    }

    /// Text of an ASCII (or EXIF 3.0 UTF-8) field: bytes up to the first NUL, trailing
    /// spaces and NULs removed. Invalid UTF-8 is decoded with U+FFFD replacements and
    /// a warning. Empty text is `nil`.
    private mutating func text(_ e: TIFFEntry, _ ifd: String, _ name: String) -> String? {
        guard let v = value(e, ifd, name, types: [.ascii, .utf8]) else { return nil }
        var bytes = block.bytes[v.offset..<(v.offset + v.count)]
        if let nul = bytes.firstIndex(of: 0) { bytes = bytes[..<nul] }
        while let last = bytes.last, last == 0x20 || last == 0x00 { bytes = bytes.dropLast() }
        guard !bytes.isEmpty else { return nil }
        if let s = String(validating: bytes, as: UTF8.self) { return s }
        metadata.warnings.append("\(label(ifd, e.tag, name)): not valid UTF-8; invalid bytes replaced with U+FFFD")
        return String(decoding: bytes, as: UTF8.self)
    }

    private mutating func setText(
        _ field: WritableKeyPath<ExifMetadata, String?>,
        _ e: TIFFEntry, _ ifd: String, _ name: String
    ) {
        guard metadata[keyPath: field] == nil else { return }
        metadata[keyPath: field] = text(e, ifd, name)
    }

    /// First value of a SHORT or LONG field.
    private mutating func unsigned(
        _ e: TIFFEntry, _ ifd: String, _ name: String,
        types: [TIFFFieldType]
    ) -> UInt32? {
        guard let v = value(e, ifd, name, types: types) else { return nil }
        if v.type == .short { return block.uint16(at: v.offset).map { UInt32($0) } }
        return block.uint32(at: v.offset)
    }

    /// Orientation: SHORT per EXIF 2.32; values outside 1...8 are dropped with a warning.
    private mutating func setOrientation(_ e: TIFFEntry) {
        guard metadata.orientation == nil,
            let raw = unsigned(e, "IFD0", "Orientation", types: [.short])
        else { return }
        if let o = ExifOrientation(rawValue: Int(raw)) {
            metadata.orientation = o
        } else {
            metadata.warnings.append("\(label("IFD0", e.tag, "Orientation")): value \(raw) is outside 1...8; ignored")
        }
    }

    /// PixelX/YDimension: SHORT or LONG per EXIF 2.32, and SLONG when not negative
    /// (exiv2-based writers such as Shotwell store it so; ExifTool and Pillow read it).
    private mutating func setDimension(
        _ field: WritableKeyPath<ExifMetadata, Int?>,
        _ e: TIFFEntry, _ name: String
    ) {
        guard metadata[keyPath: field] == nil,
            let v = unsigned(e, "Exif IFD", name, types: [.short, .long, .slong])
        else { return }
        if e.rawType == TIFFFieldType.slong.rawValue, Int32(bitPattern: v) < 0 {
            metadata.warnings.append(
                "\(label("Exif IFD", e.tag, name)): negative value \(Int32(bitPattern: v)); ignored")
            return
        }
        metadata[keyPath: field] = Int(v)
    }

    // MARK: GPS

    /// Latitude and longitude: degrees, minutes, seconds as three RATIONALs (SRATIONAL
    /// accepted too, some phones write it) combined as `d + m/60 + s/3600`, negated for
    /// a `S` or `W` reference. A missing or unknown reference, a zero denominator, a
    /// negative component or a result out of range (|lat| > 90, |lon| > 180) drops
    /// that coordinate with a warning.
    private mutating func readGPS(_ entries: [TIFFEntry]) {
        var latRef: String?, lonRef: String?
        var lat: Double?, lon: Double?
        var seen = Set<UInt16>()
        for e in entries where seen.insert(e.tag).inserted {
            switch e.tag {
            case 0x0001: latRef = text(e, "GPS IFD", "GPSLatitudeRef")
            case 0x0002: lat = degrees(e, "GPSLatitude")
            case 0x0003: lonRef = text(e, "GPS IFD", "GPSLongitudeRef")
            case 0x0004: lon = degrees(e, "GPSLongitude")
            default: break
            }
        }
        metadata.gpsLatitude = signed(
            lat, ref: latRef, positive: "N", negative: "S",
            limit: 90, name: "GPSLatitude")
        metadata.gpsLongitude = signed(
            lon, ref: lonRef, positive: "E", negative: "W",
            limit: 180, name: "GPSLongitude")
    }

    private mutating func degrees(_ e: TIFFEntry, _ name: String) -> Double? {
        let what = label("GPS IFD", e.tag, name)
        guard let v = value(e, "GPS IFD", name, types: [.rational, .srational]) else { return nil }
        guard v.count == 3 else {
            metadata.warnings.append("\(what): count \(v.count), expected 3 (degrees, minutes, seconds); skipped")
            return nil
        }
        var parts: [Double] = []
        for i in 0..<3 {
            guard let num = block.uint32(at: v.offset + 8 * i),
                let den = block.uint32(at: v.offset + 8 * i + 4)
            else { return nil }
            let (n, d): (Double, Double) =
                v.type == .srational
                ? (Double(Int32(bitPattern: num)), Double(Int32(bitPattern: den)))
                : (Double(num), Double(den))
            guard d != 0 else {
                metadata.warnings.append("\(what): component \(i + 1) has denominator 0; skipped")
                return nil
            }
            let part = n / d
            guard part >= 0 else {
                metadata.warnings.append("\(what): component \(i + 1) is negative; skipped")
                return nil
            }
            parts.append(part)
        }
        return parts[0] + parts[1] / 60 + parts[2] / 3600
    }

    private mutating func signed(
        _ magnitude: Double?, ref: String?, positive: String,
        negative: String, limit: Double, name: String
    ) -> Double? {
        guard let magnitude else { return nil }
        let sign: Double
        switch ref?.uppercased() {
        case positive: sign = 1
        case negative: sign = -1
        case nil:
            metadata.warnings.append(
                "GPS IFD: \(name) present but its reference (\(positive)/\(negative)) is missing; coordinate dropped")
            return nil
        case let other?:
            metadata.warnings.append(
                "GPS IFD: \(name) reference is \"\(other)\", expected \(positive) or \(negative); coordinate dropped")
            return nil
        }
        guard magnitude <= limit else {
            metadata.warnings.append("GPS IFD: \(name) \(magnitude) degrees exceeds \(limit); coordinate dropped")
            return nil
        }
        return sign * magnitude
    }
}
