import Foundation
import RialDetection
import RialMedia

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The rescore of one `samples.jsonl` line without a general JSON decoder: the line's
/// top-level values are located by a byte scanner, the fields a slim record holds are read
/// directly into their types (the method results are skipped but for `status`, `score`
/// and the continuous companions), and the new line is the old one with the values of
/// `aggregate` and `decision` replaced. What `JSONDecoder` would spend on the full method
/// results (most of a line) is a scan.
///
/// The fast path covers the lines `run` writes. Anything else — a key it does not know
/// (a field added later), a missing key, an escape it does not decode, a value of another
/// type — returns nil, and the caller decodes the line with `JSONDecoder` instead, which
/// also gives the error message for a line that is not a record.
enum SampleRecordLine {
    /// The rescored line (without its newline) and its slim record.
    struct Rescored {
        var line: [UInt8]
        var record: SampleRecord
    }

    /// Rescores `line` (one record, no newline), or nil when the fast path does not apply.
    static func rescore(_ line: UnsafeBufferPointer<UInt8>, rescorer: Rescorer) -> Rescored? {
        var cursor = JSONByteCursor(line)
        var fields = Fields()
        let complete = cursor.object { cursor, key in fields.read(key, from: &cursor) }
        cursor.skipWhitespace()
        guard complete, cursor.atEnd, var record = fields.record() else { return nil }
        // A video whose deployed level changes under the new `video_rule`: the slow path
        // writes the whole record again.
        if let video = record.video,
            video.level(under: rescorer.configuration.aggregation.videoRule) != video.deployedLevel
        {
            return nil
        }
        guard record.status == .evaluated else { return Rescored(line: Array(line), record: record) }
        guard let candidates = record.aggregationInputs, let aggregateRange = fields.aggregateRange,
            let decisionRange = fields.decisionRange, aggregateRange.upperBound <= decisionRange.lowerBound
        else { return nil }
        let outcome = rescorer.aggregator.aggregate(
            candidates, attestation: record.attestationEvidence ?? .missing, profile: rescorer.profile,
            checks: record.metadataChecks ?? [:])
        let aggregate = SampleRecord.Aggregate(
            outcome.result, primaryMethod: outcome.primaryMethod,
            families: rescorer.aggregator.familyEvidence(candidates, aggregated: outcome.aggregated))
        let decision = DatasetRunner.decision(outcome.result.rankingScore, configuration: rescorer.configuration)
        guard let aggregateText = encode(aggregate) else { return nil }
        record.aggregate = aggregate
        record.decision = decision
        var out: [UInt8] = []
        out.reserveCapacity(line.count + 64)
        out.append(contentsOf: line[0..<aggregateRange.lowerBound])
        out.append(contentsOf: aggregateText.utf8)
        out.append(contentsOf: line[aggregateRange.upperBound..<decisionRange.lowerBound])
        out.append(contentsOf: "\"\(decision.rawValue)\"".utf8)
        out.append(contentsOf: line[decisionRange.upperBound..<line.count])
        return Rescored(line: out, record: record)
    }

    /// `aggregate` as `SampleRecord.jsonLine()` writes it (keys sorted, numbers as
    /// `JSONEncoder` writes them), or nil for a non-finite number.
    static func encode(_ a: SampleRecord.Aggregate) -> String? {
        let numbers = [a.score, a.uncappedScore, a.rankingScore ?? 0] + a.weights.values
        guard numbers.allSatisfy(\.isFinite) else { return nil }
        var text = ""
        if let boost = a.agreementBoost {
            guard boost.isFinite else { return nil }
            text += "\"agreement_boost\":\(number(boost)),"
        }
        if let cv = a.crossValidation {
            guard cv.confidenceImpact.isFinite, cv.interval.map({ $0.lower.isFinite && $0.upper.isFinite }) ?? true
            else { return nil }
            text += "\"cross_validation\":{\"anomalies\":{"
            text += cv.anomalies.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
            text += "},\"confidence_impact\":\(number(cv.confidenceImpact))"
            text += ",\"high_uncertainty\":\(cv.highUncertainty)"
            if let i = cv.interval {
                text += ",\"interval\":{\"lower\":\(number(i.lower)),\"upper\":\(number(i.upper))}"
            }
            text += ",\"mode\":\"\(cv.mode.rawValue)\",\"validation_status\":\"\(cv.validationStatus.rawValue)\"},"
        }
        if let evidence = a.evidenceStatus {
            text += "\"evidence_status\":{"
            text += evidence.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\"\($0.value.rawValue)\"" }
                .joined(separator: ",")
            text += "},"
        }
        text = "{" + text + "\"flags\":[" + a.flags.map { "\"\($0.rawValue)\"" }.joined(separator: ",") + "]"
        text += ",\"level\":\"\(a.level.rawValue)\""
        if let agree = a.methodsAgree { text += ",\"methods_agree\":\(agree)" }
        if let mvp = a.mvpLevel { text += ",\"mvp_level\":\"\(mvp.rawValue)\"" }
        if let primary = a.primaryMethod {
            guard let quoted = quote(primary) else { return nil }
            text += ",\"primary_method\":\(quoted)"
        }
        if let ranking = a.rankingScore { text += ",\"ranking_score\":\(number(ranking))" }
        text += ",\"score\":\(number(a.score)),\"uncapped_score\":\(number(a.uncappedScore))"
        if let weighted = a.weightedLevel { text += ",\"weighted_level\":\"\(weighted.rawValue)\"" }
        text += ",\"weights\":{"
        text += a.weights.sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\"\($0.key.rawValue)\":\(number($0.value))" }.joined(separator: ",")
        return text + "}}"
    }

    /// A finite number as `JSONEncoder` writes it: the shortest text that reads back as
    /// the same `Double` (`description`), without a trailing `.0`.
    static func number(_ value: Double) -> String {
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A breakdown key as a JSON string, or nil when it would need escaping.
    static func quote(_ s: String) -> String? {
        s.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 < 0x80 })
            ? "\"\(s)\"" : nil
    }

    /// Reads a `video` block as `SampleRecord.readLines` would (non-finite numbers as strings).
    static var videoDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }

    /// The fields of one line as they are read.
    struct Fields {
        var id: String?
        var datasetIndex: Int?
        var index: Int?
        var dataset: String?
        var label: SampleRecord.Label?
        var bonaFide: Bool?
        var group: String?
        var tags: [String]?
        var attestation: AttestationMethod?
        var split: DatasetSplit?
        var data: SampleRecord.DataKind?
        var status: SampleRecord.Status?
        var failure: SampleRecord.Failure?
        var methods: JSONObject?
        var latencyMs: [String: Double]?
        var sha256: [String: String]?
        var decodeWarnings: [String]?
        var aggregationInputs: [String: AggregationCandidate]?
        var attestationEvidence: AttestationEvidence?
        var metadataChecks: [String: EvidenceCheckStatus]?
        var phoneAggregate: SampleRecord.PhoneAggregate?
        var privacy: PrivacyVerification?
        var video: SampleRecord.Video?
        var aggregateRange: Range<Int>?
        var decisionRange: Range<Int>?

        /// The fields a slim record keeps of each method result (`SampleRecord.slimmed()`).
        static let keptMethodFields = ["status", "score"] + RunResults.continuousCompanions.map(\.field)

        /// Reads the value of top-level `key`; false for an unknown key or a value of the wrong type.
        mutating func read(_ key: String, from c: inout JSONByteCursor) -> Bool {
            switch key {
            case "id": id = c.string()
            case "dataset_index": datasetIndex = c.integer()
            case "index": index = c.integer()
            case "dataset": dataset = c.string()
            case "label": label = c.string().flatMap(SampleRecord.Label.init(rawValue:))
            case "bona_fide": bonaFide = c.bool()
            case "group": group = c.string()
            case "tags": tags = c.strings()
            case "attestation": attestation = c.string().flatMap(AttestationMethod.init(rawValue:))
            case "split": split = c.string().flatMap(DatasetSplit.init(rawValue:))
            case "data": data = c.string().flatMap(SampleRecord.DataKind.init(rawValue:))
            case "status": status = c.string().flatMap(SampleRecord.Status.init(rawValue:))
            case "failure":
                var stage: SampleRecord.Failure.Stage?, reason: String?
                let ok = c.object { c, key in
                    switch key {
                    case "stage": stage = c.string().flatMap(SampleRecord.Failure.Stage.init(rawValue:))
                    case "reason": reason = c.string()
                    default: return false
                    }
                    return true
                }
                guard ok, let stage, let reason else { return false }
                failure = .init(stage: stage, reason: reason)
                return true
            case "methods": methods = readMethods(&c)
            case "latency_ms":
                var map: [String: Double] = [:]
                guard c.object({ c, key in c.number().map { map[key] = $0 } != nil }) else { return false }
                latencyMs = map
            case "sha256":
                var map: [String: String] = [:]
                guard c.object({ c, key in c.string().map { map[key] = $0 } != nil }) else { return false }
                sha256 = map
            case "decode_warnings": decodeWarnings = c.strings()
            case "aggregation_inputs": aggregationInputs = readCandidates(&c)
            case "attestation_evidence":
                var status: EvidenceCheckStatus?, method: AttestationMethod?
                let ok = c.object { c, key in
                    switch key {
                    case "status": status = c.string().flatMap(EvidenceCheckStatus.init(rawValue:))
                    case "method": method = c.string().flatMap(AttestationMethod.init(rawValue:))
                    default: return false
                    }
                    return true
                }
                guard ok, let status, let method else { return false }
                attestationEvidence = AttestationEvidence(status: status, method: method)
                return true
            case "metadata_checks":
                var map: [String: EvidenceCheckStatus] = [:]
                guard c.object({ c, key in c.string().flatMap(EvidenceCheckStatus.init).map { map[key] = $0 } != nil })
                else { return false }
                metadataChecks = map
            case "phone_aggregate":
                guard let value = c.value(), let object = value.objectValue else { return false }
                var level: ConfidenceLevel?, score: Double?
                for (key, v) in object {
                    switch (key, v) {
                    case ("level", .string(let s)): level = ConfidenceLevel(rawValue: s)
                    case ("score", .number(let n)): score = n
                    case (_, .null): break
                    default: return false
                    }
                }
                phoneAggregate = .init(level: level, score: score)
                return true
            case "privacy":
                // Rare and small: decoded whole.
                guard let value = c.value(),
                    let verification = try? JSONDecoder().decode(
                        PrivacyVerification.self, from: value.serializedData(pretty: false))
                else { return false }
                privacy = verification
                return true
            case "video":
                // One per video sample, small: decoded by `JSONDecoder` from its bytes.
                guard let range = c.skipValue(),
                    let decoded = try? SampleRecordLine.videoDecoder.decode(
                        SampleRecord.Video.self, from: Data(UnsafeBufferPointer(rebasing: c.bytes[range])))
                else { return false }
                video = decoded
                return true
            case "aggregate":
                guard let range = c.skipValue() else { return false }
                aggregateRange = range
                return true
            case "decision":
                guard let range = c.skipValue() else { return false }
                decisionRange = range
                return true
            default: return false
            }
            return valueWasRead(key)
        }

        /// Whether the field `key` names was set by the read that just happened.
        private func valueWasRead(_ key: String) -> Bool {
            switch key {
            case "id": id != nil
            case "dataset_index": datasetIndex != nil
            case "index": index != nil
            case "dataset": dataset != nil
            case "label": label != nil
            case "bona_fide": bonaFide != nil
            case "group": group != nil
            case "tags": tags != nil
            case "attestation": attestation != nil
            case "split": split != nil
            case "data": data != nil
            case "status": status != nil
            case "methods": methods != nil
            case "decode_warnings": decodeWarnings != nil
            case "aggregation_inputs": aggregationInputs != nil
            default: true
            }
        }

        /// `methods`, slim: each result cut to `keptMethodFields`.
        func readMethods(_ c: inout JSONByteCursor) -> JSONObject? {
            var methods = JSONObject()
            // A handful of short names: compared directly, no hashing per field.
            let kept = Self.keptMethodFields
            let ok = c.object { c, method in
                var fields = JSONObject()
                let ok = c.object { c, name in
                    guard kept.contains(name) else { return c.skipValue() != nil }
                    guard let value = c.value() else { return false }
                    fields[name] = value
                    return true
                }
                methods[method] = .object(fields)
                return ok
            }
            return ok ? methods : nil
        }

        func readCandidates(_ c: inout JSONByteCursor) -> [String: AggregationCandidate]? {
            var candidates: [String: AggregationCandidate] = [:]
            let ok = c.object { c, key in
                var family: MethodFamily?, source: MethodOutcome.Source?, available: Bool?
                var score: Double?, scoreRead = false, screen: Bool?, print: Bool?
                let ok = c.object { c, name in
                    switch name {
                    case "family": family = c.string().flatMap(MethodFamily.init(rawValue:))
                    case "source": source = c.string().flatMap(MethodOutcome.Source.init(rawValue:))
                    case "available": available = c.bool()
                    case "screen_detected": screen = c.bool()
                    case "print_detected": print = c.bool()
                    case "score":
                        guard let value = c.value() else { return false }
                        switch value {
                        case .null: score = nil
                        case .number(let n): score = n
                        default: return false
                        }
                        scoreRead = true
                    default: return false
                    }
                    return true
                }
                guard ok, scoreRead, let family, let source, let available, let screen, let print else { return false }
                candidates[key] = AggregationCandidate(
                    family: family, source: source, available: available, score: score, screenDetected: screen,
                    printDetected: print)
                return true
            }
            return ok ? candidates : nil
        }

        /// The slim record, or nil when a required field is missing.
        func record() -> SampleRecord? {
            guard let id, let datasetIndex, let index, let dataset, let label, let bonaFide, let tags, let attestation,
                let split, let data, let status, let methods, let latencyMs, let sha256
            else { return nil }
            // An evaluated record has both recorded; a failed one neither.
            guard (aggregationInputs == nil) == (attestationEvidence == nil) else { return nil }
            return SampleRecord(
                id: id, datasetIndex: datasetIndex, index: index, dataset: dataset, label: label, bonaFide: bonaFide,
                group: group, tags: tags, attestation: attestation, split: split, data: data, status: status,
                failure: failure, methods: methods, aggregate: nil, decision: nil, aggregationInputs: aggregationInputs,
                attestationEvidence: attestationEvidence, metadataChecks: metadataChecks, latencyMs: latencyMs,
                sha256: sha256, decodeWarnings: decodeWarnings, phoneAggregate: phoneAggregate, privacy: privacy,
                video: video)
        }
    }
}

/// A forward reader over the bytes of one JSON document, for the fast path of
/// `SampleRecordLine`: each read returns nil (or false) on anything unexpected, and the
/// caller falls back to `JSONDecoder`.
struct JSONByteCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { position >= bytes.count }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// Reads an object, calling `entry` with each key and the cursor at its value;
    /// `entry` reads the value and returns false to stop. True when the whole object was read.
    mutating func object(_ entry: (inout JSONByteCursor, String) -> Bool) -> Bool {
        guard consume(UInt8(ascii: "{")) else { return false }
        if consume(UInt8(ascii: "}")) { return true }
        repeat {
            skipWhitespace()
            guard let key = string(), consume(UInt8(ascii: ":")) else { return false }
            skipWhitespace()
            guard entry(&self, key) else { return false }
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "}"))
    }

    /// A string (escapes decoded), or nil.
    mutating func string() -> String? {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { return nil }
        let start = position + 1
        var i = start
        var escaped = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escaped = true
                i += 2
                continue
            }
            if b < 0x20 { return nil }
            i += 1
        }
        guard i < bytes.count else { return nil }
        position = i + 1
        let raw = UnsafeBufferPointer(rebasing: bytes[start..<i])
        guard escaped else { return String(decoding: raw, as: UTF8.self) }
        // Rare (reasons, paths with quotes): the general parser decodes the escapes.
        guard case .string(let decoded)? = try? JSONValue.parse(Array(bytes[(start - 1)...i])[...]) else {
            return nil
        }
        return decoded
    }

    /// An array of strings, or nil.
    mutating func strings() -> [String]? {
        guard consume(UInt8(ascii: "[")) else { return nil }
        var items: [String] = []
        if consume(UInt8(ascii: "]")) { return items }
        repeat {
            guard let item = string() else { return nil }
            items.append(item)
        } while consume(UInt8(ascii: ","))
        return consume(UInt8(ascii: "]")) ? items : nil
    }

    mutating func bool() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        let text = word.utf8Start
        for k in 0..<count where bytes[position + k] != text[k] { return false }
        position += count
        return true
    }

    /// A JSON number, or one of the strings `nan`, `inf`, `-inf` the records use for
    /// non-finite numbers (as `JSONDecoder` reads them for a `Double`).
    mutating func number() -> Double? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        if bytes[position] == UInt8(ascii: "\"") {
            switch string() {
            case "nan": return .nan
            case "inf": return .infinity
            case "-inf": return -.infinity
            default: return nil
            }
        }
        let start = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
                UInt8(ascii: "e"), UInt8(ascii: "E"):
                position += 1
            default:
                return Self.parseDouble(UnsafeBufferPointer(rebasing: bytes[start..<position]))
            }
        }
        return Self.parseDouble(UnsafeBufferPointer(rebasing: bytes[start..<position]))
    }

    /// An integer written without fraction or exponent, or nil.
    mutating func integer() -> Int? {
        guard let value = number(), value.isFinite, value == value.rounded(), abs(value) < 9.0e15 else { return nil }
        return Int(value)
    }

    /// `strtod` on the bytes (C locale: `.` decimal point); nil unless all of them are used.
    static func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !text.isEmpty, text.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer in
            for k in 0..<text.count { buffer[k] = CChar(bitPattern: text[k]) }
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end - buffer.baseAddress! == text.count else { return nil }
            return value
        }
    }

    /// A small value of any type, as `JSONDecoder` reads a `JSONValue` (numbers also from
    /// `nan`/`inf` strings; object keys sorted).
    mutating func value() -> JSONValue? {
        skipWhitespace()
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""):
            let save = position
            if let n = number() { return .number(n) }
            position = save
            return string().map(JSONValue.string)
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return bool().map(JSONValue.bool)
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        case UInt8(ascii: "["):
            guard let range = skipValue(), let parsed = try? JSONValue.parse(Array(bytes[range])[...]) else {
                return nil
            }
            return parsed
        case UInt8(ascii: "{"):
            guard let range = skipValue(), case .object(let object)? = try? JSONValue.parse(Array(bytes[range])[...])
            else { return nil }
            return .object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        default: return number().map(JSONValue.number)
        }
    }

    /// Skips one value; its byte range, or nil when it is malformed.
    mutating func skipValue() -> Range<Int>? {
        skipWhitespace()
        let start = position
        var depth = 0
        while position < bytes.count {
            let b = bytes[position]
            switch b {
            case UInt8(ascii: "\""):
                position += 1
                while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
                    position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard position < bytes.count else { return nil }
                position += 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                position += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return start < position ? start..<position : nil }
                depth -= 1
                position += 1
            case UInt8(ascii: ","), UInt8(ascii: ":"):
                if depth == 0 { return start < position ? start..<position : nil }
                position += 1
            default:
                position += 1
            }
            if depth == 0 && position > start
                && (b == UInt8(ascii: "\"") || b == UInt8(ascii: "}") || b == UInt8(ascii: "]"))
            {
                return start..<position
            }
        }
        return depth == 0 && start < position ? start..<position : nil
    }
}
