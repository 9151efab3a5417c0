import Foundation

/// A print: paper, inks and (for attacks) an amplitude-modulated CMYK halftone.
public struct PrintParameters: Codable, Sendable, Equatable {
    public var process: Process
    /// Halftone ruling in lines per inch on the paper (derived: 25.4 / period_mm).
    public var lpi: Float
    /// Halftone cell period in sensor px at the subject centre, frontal (2-8).
    public var periodPx: Float
    /// Screen angles of C, M, Y, K in degrees (conventional 15, 75, 0, 45).
    public var screenAnglesDeg: [Float]
    /// Mechanical dot gain at 50 % tone: printed = t + 4 g t (1 - t) (0.06-0.18).
    public var dotGain: Float
    /// Reflectance of bare paper (0.85-0.9) and of solid black ink or toner (0.03-0.06:
    /// optical density 1.2-1.5).
    public var paperWhite: Float
    public var inkBlack: Float
    /// Relative amplitude of the paper fibre texture (0.01-0.05).
    public var paperTexture: Float
    /// Grey-component replacement: share of min(C, M, Y) printed with K (0.5-1).
    public var grayComponentReplacement: Float
    /// Sheet size, m (width, height).
    public var sheetSizeM: [Float]
    /// Paper colour as multipliers of `paper_white` on linear R, G, B: warm (cream)
    /// paper has B < 1, paper with optical brighteners B > 1 (each 0.93-1.04). nil =
    /// (1, 1, 0.985).
    public var paperTint: [Float]?

    /// Reflectance of bare paper, linear RGB: paper_white * paper_tint, each channel
    /// clamped to 0.05...1.
    public var paperReflectance: (Float, Float, Float) {
        let w = min(max(paperWhite, 0.05), 1)
        let t = paperTint.flatMap { $0.count == 3 ? $0 : nil } ?? [1, 1, 0.985]
        func c(_ v: Float) -> Float { min(max(w * v, 0.05), 1) }
        return (c(t[0]), c(t[1]), c(t[2]))
    }

    public enum Process: String, Codable, Sendable, Equatable, CaseIterable {
        /// Offset/inkjet-like AM halftone, four rotated screens.
        case cmykHalftone = "cmyk_halftone"
        /// Laser toner, solid black text without a screen (bona fide documents).
        case solidToner = "solid_toner"
    }

    public init(
        process: Process = .cmykHalftone, lpi: Float = 0, periodPx: Float = 4,
        screenAnglesDeg: [Float] = [15, 75, 0, 45], dotGain: Float = 0.15,
        paperWhite: Float = 0.87, inkBlack: Float = 0.12, paperTexture: Float = 0.03,
        grayComponentReplacement: Float = 0.7, sheetSizeM: [Float] = [0.297, 0.21],
        paperTint: [Float]? = nil
    ) {
        self.process = process
        self.lpi = lpi
        self.periodPx = periodPx
        self.screenAnglesDeg = screenAnglesDeg
        self.dotGain = dotGain
        self.paperWhite = paperWhite
        self.inkBlack = inkBlack
        self.paperTexture = paperTexture
        self.grayComponentReplacement = grayComponentReplacement
        self.sheetSizeM = sheetSizeM
        self.paperTint = paperTint
    }

    enum CodingKeys: String, CodingKey {
        case process, lpi
        case periodPx = "period_px"
        case screenAnglesDeg = "screen_angles_deg"
        case dotGain = "dot_gain"
        case paperWhite = "paper_white"
        case inkBlack = "ink_black"
        case paperTexture = "paper_texture"
        case grayComponentReplacement = "gray_component_replacement"
        case sheetSizeM = "sheet_size_m"
        case paperTint = "paper_tint"
    }
}
