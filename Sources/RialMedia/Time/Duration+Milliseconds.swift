extension Duration {
    /// The duration in milliseconds (seconds x 1000 + attoseconds / 1e15), for timings
    /// measured with `ContinuousClock`.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    }
}
