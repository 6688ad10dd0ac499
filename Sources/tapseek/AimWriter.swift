import Foundation
import TapSeek

/// What `tapseek aim` prints: the aim JSON of the public interface, or a GeoJSON
/// FeatureCollection of the observer, the target, the sightline and the blocking terrain.
enum AimWriter {
    /// `{"id"?,"line"?,"target":{…},"azimuth","elevationAngle","distance","slantRange","visible",
    /// "blockedBy"?,"pixel"?,"observer","warnings"[,"error"]}`; angles to 1e-6°, metres to 1 cm.
    static func write(_ r: AimResult, to out: inout OutputBuffer) {
        /// `"latitude","longitude","elevation"` of a point (no braces).
        func position(_ latitude: Double, _ longitude: Double, _ elevation: Double) {
            out.append("\"latitude\":")
            out.appendFixed(latitude, decimals: 7)
            out.append(",\"longitude\":")
            out.appendFixed(longitude, decimals: 7)
            out.append(",\"elevation\":")
            out.appendFixed(elevation, decimals: 2)
        }
        out.append("{")
        ResultJSON.writeIdentity(id: r.id, line: r.line, to: &out)
        if let t = r.target {
            out.append("\"target\":{")
            position(t.latitude, t.longitude, t.elevation)
            if let name = t.name {
                out.append(",\"name\":")
                out.appendJSONString(name)
            }
            out.append("},")
        }
        if r.error == nil {
            out.append("\"azimuth\":")
            out.appendFixed(r.azimuth, decimals: 6)
            out.append(",\"elevationAngle\":")
            out.appendFixed(r.elevationAngle, decimals: 6)
            out.append(",\"distance\":")
            out.appendFixed(r.distance, decimals: 2)
            out.append(",\"slantRange\":")
            out.appendFixed(r.slantRange, decimals: 2)
            out.append(",\"visible\":\(r.visible)")
            if let b = r.blockedBy {
                out.append(",\"blockedBy\":{")
                position(b.latitude, b.longitude, b.elevation)
                out.append(",\"distance\":")
                out.appendFixed(b.distance, decimals: 2)
                out.append("}")
            }
            if let p = r.pixel {
                out.append(",\"pixel\":{")
                if let x = p.x, let y = p.y {
                    out.append("\"x\":")
                    out.appendFixed(x, decimals: 2)
                    out.append(",\"y\":")
                    out.appendFixed(y, decimals: 2)
                    out.append(",")
                }
                out.append("\"inFrame\":\(p.inFrame),\"behindCamera\":\(p.behindCamera)}")
            }
            out.append(",")
        }
        if let o = r.observer {
            out.append("\"observer\":")
            out.appendJSON(o)
        } else {
            out.append("\"observer\":null")
        }
        ResultJSON.writeWarnings(r.warnings, error: r.error, to: &out)
        out.append("}")
    }

    /// A FeatureCollection: `target` (a Point with the aim's fields as properties), `observer`,
    /// `sightline` (a LineString from the eye to the target) and, when hidden, `blockedBy` (a
    /// Point on the terrain in the way). Heights above the WGS84 ellipsoid, as RFC 7946 asks.
    static func writeFeatureCollection(of r: AimResult, geoid: Geoid, to out: inout OutputBuffer) {
        typealias Position = GeoJSONWriter.Position
        func ellipsoidal(_ latitude: Double, _ longitude: Double, _ msl: Double) -> Position {
            Position(longitude: longitude, latitude: latitude, height: msl + geoid.undulation(latitude: latitude, longitude: longitude))
        }
        let target = r.target.map { ellipsoidal($0.latitude, $0.longitude, $0.elevation) }
        let eye = r.observer.map { ellipsoidal($0.latitude, $0.longitude, $0.altitude) }
        out.append("{\"type\":\"FeatureCollection\",\"features\":[")
        out.append("{\"type\":\"Feature\",\"properties\":{\"role\":\"target\",\"aim\":")
        write(r, to: &out)
        out.append("},\"geometry\":")
        GeoJSONWriter.writePoint(target, to: &out)
        out.append("}")
        if let eye {
            out.append(",{\"type\":\"Feature\",\"properties\":{\"role\":\"observer\"},\"geometry\":")
            GeoJSONWriter.writePoint(eye, to: &out)
            out.append("}")
            if let target {
                out.append(",{\"type\":\"Feature\",\"properties\":{\"role\":\"sightline\",\"visible\":\(r.visible)},\"geometry\":")
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
