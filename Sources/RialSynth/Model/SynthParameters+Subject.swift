import Foundation

/// Pose of the subject (display, print, wall, document) relative to the camera. Zero
/// for 3D bona fide scenes (`room`, `tabletop`), whose camera pose and layout come from
/// `scene_seed`.
public struct SubjectPlacement: Codable, Sendable, Equatable {
    /// Distance of the subject's centre along the optical axis, m (screens and prints
    /// 0.25-1.5).
    public var distanceM: Float
    /// Angle between the subject's normal and the optical axis, degrees (0-40).
    public var tiltDeg: Float
    /// Direction, in the image plane, of the axis the subject is tilted about, degrees
    /// (0 = tilted about the image x axis: top edge away from the camera).
    public var tiltAxisDeg: Float
    /// In-plane rotation of the subject about its normal, degrees (positive = clockwise
    /// in the image).
    public var rotationDeg: Float
    /// Subject width as a fraction of the frame width at `distance_m` (0.4-1.0; larger
    /// than 1 overfills the frame).
    public var fillFraction: Float
    /// Offset of the subject centre from the optical axis, fractions of the frame
    /// width and height at `distance_m` (-0.1...0.1).
    public var offsetX: Float
    public var offsetY: Float
    /// What the subject rests on: `desk`, `wall` or `handheld` (free in the room).
    public var placement: Placement
    /// Bend of a print: the sheet is z = curvature / 2 * u^2 across its width, 1/m
    /// (0 = flat, 2 = radius 0.5 m).
    public var curvaturePerM: Float
    /// Roll of the camera about its optical axis relative to the level (world
    /// horizontal), degrees (mostly within +-6, rarely up to +-15).
    public var cameraRollDeg: Float
    /// How far the subject leans back from upright, degrees: 0 stands or hangs
    /// upright (monitors, wall prints, hand-held), 90 lies flat (sheets and phones on
    /// a desk), in between leans against a support. World up is
    /// cos(lean) * level_up + sin(lean) * normal, level_up being the unit vector
    /// orthogonal to the subject normal and the camera x axis, rolled by
    /// `camera_roll_deg` about the normal.
    public var leanDeg: Float

    public enum Placement: String, Codable, Sendable, Equatable, CaseIterable {
        case desk, wall, handheld
    }

    public init(
        distanceM: Float = 0.5, tiltDeg: Float = 0, tiltAxisDeg: Float = 0,
        rotationDeg: Float = 0, fillFraction: Float = 0.8, offsetX: Float = 0,
        offsetY: Float = 0, placement: Placement = .wall, curvaturePerM: Float = 0,
        cameraRollDeg: Float = 0, leanDeg: Float = 0
    ) {
        self.distanceM = distanceM
        self.tiltDeg = tiltDeg
        self.tiltAxisDeg = tiltAxisDeg
        self.rotationDeg = rotationDeg
        self.fillFraction = fillFraction
        self.offsetX = offsetX
        self.offsetY = offsetY
        self.placement = placement
        self.curvaturePerM = curvaturePerM
        self.cameraRollDeg = cameraRollDeg
        self.leanDeg = leanDeg
    }

    enum CodingKeys: String, CodingKey {
        case distanceM = "distance_m"
        case tiltDeg = "tilt_deg"
        case tiltAxisDeg = "tilt_axis_deg"
        case rotationDeg = "rotation_deg"
        case fillFraction = "fill_fraction"
        case offsetX = "offset_x"
        case offsetY = "offset_y"
        case placement
        case curvaturePerM = "curvature_per_m"
        case cameraRollDeg = "camera_roll_deg"
        case leanDeg = "lean_deg"
    }
}
