/// How far a sightline's answer rests on terrain that a void fill (``VoidFill``) made up: the
/// DEM had no data there, and the heights are a smooth surface spanned from around the void.
public struct FilledTerrain: Sendable, Hashable {
    /// Whether the hit or skyline point lies on a cell with a filled post.
    public var targetOnFilled: Bool
    /// Ground metres of the sightline, before its target, over filled cells with the ray less
    /// than ``clearance`` above them: where real terrain standing proud of the fill would
    /// have stopped it.
    public var groundDistance: Double

    public init(targetOnFilled: Bool, groundDistance: Double) {
        self.targetOnFilled = targetOnFilled
        self.groundDistance = groundDistance
    }

    /// How close above filled terrain the ray must pass for the answer to rest on it, metres.
    /// A fill is the smoothest surface meeting the void's rim; on the steep faces where SRTM has
    /// its voids, ribs and towers stand proud of such a surface by tens of metres, so a ray
    /// passing lower than this over filled terrain may in truth have been stopped there, and
    /// one passing higher does not depend on the guess.
    public static let clearance = 100.0
    /// Spacing of the samples along the sightline that look for filled terrain, metres: a
    /// third of a 1″ post, so no filled cell the ray crosses is missed by much.
    static let spacing = 10.0
}
