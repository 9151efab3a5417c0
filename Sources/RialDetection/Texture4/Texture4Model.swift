/// A `texture/4` model: a `TextureModel` (file format `rial-texture-model/1`, the same
/// standardised, clipped multinomial logistic regression as `texture/1` to `texture/3`)
/// whose `feature_set_version` is 4 (`Texture4Features`), checked by `VersionedTextureModel`.
public typealias Texture4Model = VersionedTextureModel<TextureV4>
