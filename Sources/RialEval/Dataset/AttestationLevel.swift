import RialDetection

/// How strongly a capture's origin is attested (`rial-bench-dataset/1` key
/// `attestation`): the detection module's `AttestationMethod`, so a manifest's value
/// feeds the aggregator's attestation caps unchanged.
///
/// Breakdowns report metrics per level. A sample without the key is `none`
/// (unknown or not attested).
public typealias AttestationLevel = AttestationMethod
