/// The sample median of a list of numbers, as the image-gap measurements and
/// `bench-compare` summarise them.
enum Median {
    /// The middle value, or the mean of the two middle values for an even count; NaN
    /// values are left out; NaN when none remain.
    static func of(_ values: [Double]) -> Double {
        let s = values.filter { !$0.isNaN }.sorted()
        guard !s.isEmpty else { return .nan }
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
