/// A `texture/3` model: a `TextureModel` (file format `rial-texture-model/1`, the same
/// standardised, clipped multinomial logistic regression as `texture/1` and `texture/2`;
/// `Texture2Model` documents why logistic regression) whose `feature_set_version` is 3
/// (`Texture3Features`), checked by `VersionedTextureModel`.
public typealias Texture3Model = VersionedTextureModel<TextureV3>
