/// JSON has no NaN or infinity: metric values that are undefined (NaN) or infinite
/// (the `+inf` threshold "accept nothing") are written as `null`, and `null` or an
/// absent key reads back as NaN.
extension KeyedEncodingContainer {
    /// `value`, or `null` when it is NaN or infinite.
    mutating func encodeNullable(_ value: Double, forKey key: Key) throws {
        if value.isFinite { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
    }

    /// An array with `null` in place of each NaN or infinite element.
    mutating func encodeNullable(_ values: [Double], forKey key: Key) throws {
        try encode(values.map { $0.isFinite ? $0 : nil }, forKey: key)
    }
}

extension KeyedDecodingContainer {
    /// The number at `key`; NaN for `null` or an absent key.
    func decodeNullable(_ key: Key) throws -> Double {
        try decodeIfPresent(Double.self, forKey: key) ?? .nan
    }

    /// The array at `key` with NaN for each `null`; empty when absent.
    func decodeNullableArray(_ key: Key) throws -> [Double] {
        (try decodeIfPresent([Double?].self, forKey: key) ?? []).map { $0 ?? .nan }
    }
}
