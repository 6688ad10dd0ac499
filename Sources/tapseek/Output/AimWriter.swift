import Foundation
import TapSeek

/// The GeoJSON of `tapseek aim` (its JSON is the library's `AimResult` encoding): a
/// FeatureCollection of the observer, the target, the sightline and the blocking terrain.
enum AimWriter {
    /// A FeatureCollection: `target` (a Point with the aim's fields as properties), `observer`,
    /// `sightline` (a LineString from the eye to the target) and, when hidden, `blockedBy` (a
    /// Point on the terrain in the way). Heights above the WGS84 ellipsoid, as RFC 7946 asks.
    static func writeFeatureCollection(of r: AimResult, geoid: Geoid, to out: inout OutputBuffer) {
        typealias Position = GeoJSONWriter.Position
        func ellipsoidal(_ latitude: Double, _ longitude: Double, _ msl: Double) -> Position {
            Position(longitude: longitude, latitude: latitude, height: msl + geoid.undulation(latitude: latitude, longitude: longitude))
        }
        // A target of unknown elevation was aimed at on the ellipsoid: height 0.
        let target = r.target.map { t in
            t.elevation.map { ellipsoidal(t.latitude, t.longitude, $0) } ?? Position(longitude: t.longitude, latitude: t.latitude, height: 0)
        }
        let eye = r.observer.map { ellipsoidal($0.latitude, $0.longitude, $0.altitude) }
        out.append("{\"type\":\"FeatureCollection\",\"features\":[")
        out.append("{\"type\":\"Feature\",\"properties\":{\"role\":\"target\",\"aim\":")
        out.appendJSON(r)
        out.append("},\"geometry\":")
        GeoJSONWriter.writePoint(target, to: &out)
        out.append("}")
        if let eye {
            out.append(",{\"type\":\"Feature\",\"properties\":{\"role\":\"observer\"},\"geometry\":")
            GeoJSONWriter.writePoint(eye, to: &out)
            out.append("}")
            if let target {
                out.append(",{\"type\":\"Feature\",\"properties\":{\"role\":\"sightline\",\"visible\":\(r.visible.map(String.init) ?? "null")},\"geometry\":")
                GeoJSONWriter.writeLines([[eye, target]], to: &out)
                out.append("}")
            }
        }
        if let b = r.blockedBy {
            out.append(",{\"type\":\"Feature\",\"properties\":{\"role\":\"blockedBy\",\"elevation\":")
            out.appendFixed(b.elevation, decimals: 2)
            out.append(",\"distance\":")
            out.appendFixed(b.distance, decimals: 2)
            out.append("},\"geometry\":")
            GeoJSONWriter.writePoint(ellipsoidal(b.latitude, b.longitude, b.elevation), to: &out)
            out.append("}")
        }
        out.append("]}")
    }
}
