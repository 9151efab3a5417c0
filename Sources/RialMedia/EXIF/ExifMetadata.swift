/// The EXIF fields rial-bench uses, read from a JPEG's APP1 `Exif\0\0` segment by
/// `ExifReader`.
///
/// Every field is optional: `nil` means the tag is absent or was malformed (and then
/// `warnings` says why). Strings are the tag's bytes up to the first NUL with trailing
/// spaces and NULs removed; an empty result is `nil`. Dates are kept verbatim as EXIF
/// writes them (`"YYYY:MM:DD HH:MM:SS"`), time offsets as `"+HH:MM"`.
///
/// JSON uses snake_case keys; absent fields are omitted, `orientation` is the raw
/// 1...8 value.
public struct ExifMetadata: Codable, Sendable, Equatable {
    /// IFD0 0x010F Make: camera manufacturer, e.g. `"Apple"`.
    public var make: String?
    /// IFD0 0x0110 Model: camera model, e.g. `"iPhone 6"`.
    public var model: String?
    /// IFD0 0x0131 Software: firmware or editing software that wrote the file.
    public var software: String?
    /// IFD0 0x0132 DateTime: when the file was last changed, `"YYYY:MM:DD HH:MM:SS"`.
    public var dateTime: String?
    /// Exif IFD 0x9003 DateTimeOriginal: when the picture was taken (local time).
    public var dateTimeOriginal: String?
    /// Exif IFD 0x9011 OffsetTimeOriginal: UTC offset of `dateTimeOriginal`, `"+HH:MM"`.
    public var offsetTimeOriginal: String?
    /// IFD0 0x0112 Orientation; `nil` when absent or outside 1...8.
    public var orientation: ExifOrientation?
    /// Exif IFD 0xA002 PixelXDimension: the compressed image's width in pixels as the
    /// camera recorded it (stored grid, before orientation).
    public var pixelXDimension: Int?
    /// Exif IFD 0xA003 PixelYDimension: the compressed image's height in pixels.
    public var pixelYDimension: Int?
    /// GPS IFD 0x0001/0x0002: latitude in decimal degrees, north positive, in -90...90.
    public var gpsLatitude: Double?
    /// GPS IFD 0x0003/0x0004: longitude in decimal degrees, east positive, in -180...180.
    public var gpsLongitude: Double?
    /// Exif IFD 0xA434 LensModel, e.g. `"iPhone 6 back camera 4.15mm f/2.2"`.
    public var lensModel: String?
    /// One line per malformed structure or field that was skipped, naming the IFD,
    /// the tag and what was wrong. Empty for a well-formed block.
    public var warnings: [String]

    public init(
        make: String? = nil, model: String? = nil, software: String? = nil,
        dateTime: String? = nil, dateTimeOriginal: String? = nil,
        offsetTimeOriginal: String? = nil, orientation: ExifOrientation? = nil,
        pixelXDimension: Int? = nil, pixelYDimension: Int? = nil,
        gpsLatitude: Double? = nil, gpsLongitude: Double? = nil,
        lensModel: String? = nil, warnings: [String] = []
    ) {
        self.make = make
        self.model = model
        self.software = software
        self.dateTime = dateTime
        self.dateTimeOriginal = dateTimeOriginal
        self.offsetTimeOriginal = offsetTimeOriginal
        self.orientation = orientation
        self.pixelXDimension = pixelXDimension
        self.pixelYDimension = pixelYDimension
        self.gpsLatitude = gpsLatitude
        self.gpsLongitude = gpsLongitude
        self.lensModel = lensModel
        self.warnings = warnings
    }

    /// True when no field was read (warnings aside).
    public var hasNoFields: Bool {
        make == nil && model == nil && software == nil && dateTime == nil
            && dateTimeOriginal == nil && offsetTimeOriginal == nil && orientation == nil
            && pixelXDimension == nil && pixelYDimension == nil
            && gpsLatitude == nil && gpsLongitude == nil && lensModel == nil
    }

    enum CodingKeys: String, CodingKey {
        case make, model, software
        case dateTime = "datetime"
        case dateTimeOriginal = "datetime_original"
        case offsetTimeOriginal = "offset_time_original"
        case orientation
        case pixelXDimension = "pixel_x_dimension"
        case pixelYDimension = "pixel_y_dimension"
        case gpsLatitude = "gps_latitude"
        case gpsLongitude = "gps_longitude"
        case lensModel = "lens_model"
        case warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        make = try c.decodeIfPresent(String.self, forKey: .make)
        model = try c.decodeIfPresent(String.self, forKey: .model)
        software = try c.decodeIfPresent(String.self, forKey: .software)
        dateTime = try c.decodeIfPresent(String.self, forKey: .dateTime)
        dateTimeOriginal = try c.decodeIfPresent(String.self, forKey: .dateTimeOriginal)
        offsetTimeOriginal = try c.decodeIfPresent(String.self, forKey: .offsetTimeOriginal)
        orientation = try c.decodeIfPresent(ExifOrientation.self, forKey: .orientation)
        pixelXDimension = try c.decodeIfPresent(Int.self, forKey: .pixelXDimension)
        pixelYDimension = try c.decodeIfPresent(Int.self, forKey: .pixelYDimension)
        gpsLatitude = try c.decodeIfPresent(Double.self, forKey: .gpsLatitude)
        gpsLongitude = try c.decodeIfPresent(Double.self, forKey: .gpsLongitude)
        lensModel = try c.decodeIfPresent(String.self, forKey: .lensModel)
        // Older result files without the key decode as "no warnings".
        warnings = try c.decodeIfPresent([String].self, forKey: .warnings) ?? []
    }
}
