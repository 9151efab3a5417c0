import RialMedia

extension SampleLabel {
    /// The colour a contact sheet uses for this label's tile border, caption and legend
    /// swatch: bona fide green; displays orange to red (`lcd_screen` orange, `screen`
    /// red-orange, `oled_screen` red); prints blue. Chosen to stay distinct on a dark
    /// background and from the Turbo depth colours' magenta invalid marker.
    public var sheetColor: DepthHeatmap.Color {
        switch self {
        case .realScene: DepthHeatmap.Color(r: 60, g: 180, b: 75)
        case .lcdScreen: DepthHeatmap.Color(r: 245, g: 150, b: 40)
        case .screen: DepthHeatmap.Color(r: 240, g: 95, b: 40)
        case .oledScreen: DepthHeatmap.Color(r: 225, g: 35, b: 50)
        case .printedPaper: DepthHeatmap.Color(r: 65, g: 130, b: 245)
        }
    }
}
