/// The geometry of a contact sheet: a header, then a grid of equal tiles in rows,
/// left to right, top to bottom.
///
/// All sizes are output pixels. With `S` the panel side, `P` the panels per tile,
/// `m` the margin, `b` the border, `p` the padding, `g` the panel gap and `t` the
/// text scale:
/// - a tile is `2(b + p) + P*S + (P-1)*g` wide and `2(b + p) + S + g + captionHeight`
///   tall, where `captionHeight = 3 * 9t` (three caption lines of the 5 x 7 font);
/// - with `N` tiles and `C` requested columns the grid has `c = min(C, N)` columns
///   (at least 1) and `ceil(N / c)` rows (0 when `N == 0`);
/// - the sheet is `max(minimumWidth, m + c*(tileWidth + m))` wide and
///   `headerHeight + rows*(tileHeight + m)` tall; tile `i` has its top-left corner at
///   `(m + (i mod c)*(tileWidth + m), headerHeight + (i div c)*(tileHeight + m))`.
public struct ContactSheetLayout: Sendable, Equatable {
    /// Space around and between tiles.
    public static let margin = 8
    /// Width of the label-coloured frame of a tile.
    public static let border = 3
    /// Space between a tile's frame and its contents.
    public static let padding = 4
    /// Space between panels, and between the panels and the caption.
    public static let panelGap = 4
    /// Lines of caption under the panels.
    public static let captionLines = 3
    /// The sheet is never narrower than this, so the header stays readable.
    public static let minimumWidth = 360
    /// Widest sheet the default column count aims for.
    public static let maximumDefaultWidth = 4096

    public let tileCount: Int
    /// Columns actually used: the requested count, at most `tileCount`, at least 1.
    public let columns: Int
    public let rows: Int
    /// Side of the square box each thumbnail is fitted into.
    public let panelSide: Int
    /// Panels side by side in every tile (1 to 3: image, depth, right view).
    public let panelsPerTile: Int
    /// Height of the header above the grid, top margin included.
    public let headerHeight: Int

    /// - Parameters:
    ///   - tileCount: tiles to place, >= 0.
    ///   - columns: requested columns, >= 1; `nil` for `defaultColumns`.
    ///   - panelSide: thumbnail box side, >= 1.
    ///   - panelsPerTile: 1...3.
    ///   - headerLines: lines of scale-1 text in the header below the title.
    public init(tileCount: Int, columns: Int?, panelSide: Int, panelsPerTile: Int, headerLines: Int) {
        self.tileCount = max(0, tileCount)
        self.panelSide = max(1, panelSide)
        self.panelsPerTile = min(3, max(1, panelsPerTile))
        let textScale = Self.textScale(panelSide: self.panelSide)
        headerHeight =
            Self.margin + Self.titleHeight(textScale: textScale)
            + max(0, headerLines) * Self.headerLineHeight(textScale: textScale) + Self.margin
        let tileWidth =
            2 * (Self.border + Self.padding) + self.panelsPerTile * self.panelSide
            + (self.panelsPerTile - 1) * Self.panelGap
        let tileHeight =
            2 * (Self.border + Self.padding) + self.panelSide + Self.panelGap
            + Self.captionLines * 9 * textScale
        let requested =
            columns
            ?? Self.defaultColumns(
                tileCount: self.tileCount, tileWidth: tileWidth,
                tileHeight: tileHeight)
        self.columns = max(1, min(requested, max(1, self.tileCount)))
        rows = self.tileCount == 0 ? 0 : (self.tileCount + self.columns - 1) / self.columns
    }

    /// Scale of caption and header text: `max(1, panelSide / 256)` (1 up to 511 px panels).
    public static func textScale(panelSide: Int) -> Int { max(1, panelSide / 256) }
    public var textScale: Int { Self.textScale(panelSide: panelSide) }

    /// The title is drawn at twice the text scale: `7 * 2t + 2t` pixels plus a gap.
    static func titleHeight(textScale t: Int) -> Int { 7 * 2 * t + 6 * t }
    /// Header lines are 12 pixels apart at text scale 1 (room for a colour swatch).
    static func headerLineHeight(textScale t: Int) -> Int { 12 * t }

    /// Height of the caption area: three lines of 9 pixels at text scale `t`.
    public var captionHeight: Int { Self.captionLines * 9 * textScale }

    public var tileWidth: Int {
        2 * (Self.border + Self.padding) + panelsPerTile * panelSide + (panelsPerTile - 1) * Self.panelGap
    }

    public var tileHeight: Int {
        2 * (Self.border + Self.padding) + panelSide + Self.panelGap + captionHeight
    }

    public var width: Int { max(Self.minimumWidth, Self.margin + columns * (tileWidth + Self.margin)) }
    public var height: Int { headerHeight + rows * (tileHeight + Self.margin) }

    /// Top-left corner of tile `index` (0-based, row-major).
    public func tileOrigin(_ index: Int) -> (x: Int, y: Int) {
        (
            Self.margin + (index % columns) * (tileWidth + Self.margin),
            headerHeight + (index / columns) * (tileHeight + Self.margin)
        )
    }

    /// Top-left corner of panel `k` inside a tile, relative to the tile's corner.
    public func panelOrigin(_ k: Int) -> (x: Int, y: Int) {
        (Self.border + Self.padding + k * (panelSide + Self.panelGap), Self.border + Self.padding)
    }

    /// Top of the caption inside a tile, relative to the tile's corner.
    public var captionTop: Int { Self.border + Self.padding + panelSide + Self.panelGap }

    /// Columns that make the grid about 16:10 (landscape): `ceil(sqrt(1.6 * N * h / w))`
    /// for tiles `w x h`, at least 1, at most `N` and at most what fits in
    /// `maximumDefaultWidth`.
    public static func defaultColumns(tileCount: Int, tileWidth: Int, tileHeight: Int) -> Int {
        guard tileCount > 0 else { return 1 }
        let ideal = Int(
            (1.6 * Double(tileCount) * Double(tileHeight) / Double(max(1, tileWidth))).squareRoot().rounded(.up))
        let fitting = max(1, (maximumDefaultWidth - margin) / (tileWidth + margin))
        return max(1, min(ideal, tileCount, fitting))
    }
}
