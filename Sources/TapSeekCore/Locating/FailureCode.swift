/// Why a reading got no answer, as the result JSON's `error.code` gives it: a stable string that
/// scripts may match (the `message` beside it is for people and may change).
public enum FailureCode: String, CaseIterable, Codable, Sendable {
    /// The reading (or a line of a log) is not valid: a missing or out-of-range field, bad JSON.
    case badInput = "bad-input"
    /// No tile covers the observer (or the aimed target).
    case outsideDEM = "outside-dem"
    /// A tile covers the observer but its file cannot be read.
    case damagedDEM = "damaged-dem"
    /// The observer stands over a void and the reading gives no altitude.
    case voidObserver = "void-observer"
    /// The sightline met no terrain data at all.
    case noTerrain = "no-terrain"
    /// The sightline may meet the terrain inside a void of the DEM, where its height is unknown
    /// (it leaves the void below the terrain, or the DEM ends inside the void): no target
    /// can be given. Filling voids (the default) answers most such readings.
    case terrainUnknown = "terrain-unknown"
    /// The magnetic model cannot give the declination (the date is outside its validity).
    case magneticModel = "magnetic-model"
    /// Skyline or landmark pixels fit no orientation within the search, or too loosely to trust.
    case noFit = "no-fit"
    /// An aimed place name matches nothing in the place index.
    case notFound = "not-found"
}
