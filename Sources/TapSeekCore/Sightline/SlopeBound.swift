/// How steeply the terrain can rise between two nearby points: the Lipschitz bound with which a
/// ``SightlineMarch`` proves that no crest rises between its samples.
///
/// A march asks once per step, for the ground segment between the step's two samples (at most
/// ``MarchSettings/stepRange`` apart). An answer below the true steepest slope of the terrain
/// the samples are taken from lets thin ridges be skipped; a needlessly high one only costs
/// extra samples. `mutating` so that implementations can cache what they looked up last.
public protocol SlopeBound {
    /// The steepest slope, metres of height per metre of ground distance, of the terrain anywhere
    /// on the ground between two points given in WGS84 degrees.
    mutating func maximumSlope(fromLatitude: Double, longitude: Double, toLatitude: Double, longitude: Double) -> Double
}

/// The same slope bound everywhere, e.g. ``ElevationGrid/steepestSlope()`` of the only grid.
public struct UniformSlope: SlopeBound, Sendable, Hashable {
    /// Metres per metre.
    public var slope: Double

    public init(_ slope: Double) { self.slope = slope }

    /// Always ``slope``.
    @inlinable public func maximumSlope(fromLatitude _: Double, longitude _: Double, toLatitude _: Double, longitude _: Double) -> Double {
        slope
    }
}
