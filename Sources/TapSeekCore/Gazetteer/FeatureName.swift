/// The named feature a point lies on (see ``FeatureNaming``).
public struct FeatureName: Sendable, Hashable {
    /// The feature's name as GeoNames gives it ("Säntis").
    public var name: String
    /// GeoNames' feature code (`MT`, `PK`, `LK`, `GLCR`, `PASS`…).
    public var featureCode: String
    public var kind: FeatureKind
    /// Metres (horizontal) from the point named to the feature's GeoNames coordinates.
    public var distance: Double
    public var geonameID: UInt32

    public init(name: String, featureCode: String, kind: FeatureKind, distance: Double, geonameID: UInt32) {
        self.name = name
        self.featureCode = featureCode
        self.kind = kind
        self.distance = distance
        self.geonameID = geonameID
    }
}
