import Foundation

/// The image a display shows or a print reproduces.
public struct ContentParameters: Codable, Sendable, Equatable {
    public var kind: Kind
    /// For `photo`: index into the `textures` passed to the generator, or -1 for a
    /// procedural texture chosen by `seed`.
    public var textureIndex: Int
    /// Seed of procedural or rendered content.
    public var seed: UInt64
    /// For `flat`: sRGB-encoded colour in 0...1.
    public var color: [Float]

    public enum Kind: String, Codable, Sendable, Equatable, CaseIterable {
        /// A uniform colour (a flat grey test screen shows pure moire).
        case flat
        /// A texture or photograph.
        case photo
        /// A 3D scene rendered by this generator (noise-free).
        case scene
        /// A text page.
        case text
    }

    public init(kind: Kind, textureIndex: Int = -1, seed: UInt64 = 0, color: [Float] = [0.5, 0.5, 0.5]) {
        self.kind = kind
        self.textureIndex = textureIndex
        self.seed = seed
        self.color = color
    }

    enum CodingKeys: String, CodingKey {
        case kind
        case textureIndex = "texture_index"
        case seed, color
    }
}
