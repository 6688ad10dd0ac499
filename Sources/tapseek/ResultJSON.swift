import Foundation
import TapSeek

/// The result JSON of the public interface, written without `JSONEncoder` (batch output runs to
/// millions of lines). Heights and distances to the centimetre, angles to 1e-6°, positions to
/// 1e-7° (1 cm).
enum ResultJSON {
    static func write(_ r: LocateResult, to out: inout OutputBuffer) {
        out.append("{")
        writeIdentity(id: r.id, line: r.line, to: &out)
        if let time = r.time {
            out.append("\"time\":")
            out.appendJSONString(ISO8601DateTime.format(time))
            out.append(",")
        }
        out.append("\"status\":\"\(r.status.rawValue)\"")
        if let t = r.target {
            out.append(",\"target\":{\"latitude\":")
            out.appendFixed(t.latitude, decimals: 7)
            out.append(",\"longitude\":")
            out.appendFixed(t.longitude, decimals: 7)
            writeMeasures(of: t, to: &out)
            out.append("}")
        }
        if let s = r.sightline {
            out.append(",\"sightline\":{")
            writeDirection(of: s, to: &out)
            out.append("}")
        }
        if let o = r.observer {
            out.append(",\"observer\":")
            writeObserver(o, to: &out)
        }
        if let p = r.placemark { writePlacemark(p, to: &out) }
        if r.status != .error, !r.track.isEmpty,
           let polyline = try? Polyline.encode(r.track.map { Polyline.Coordinate(latitude: $0.latitude, longitude: $0.longitude) },
                                               precision: .osrm) {
            out.append(",\"profile\":{\"polyline\":")
            out.appendJSONString(polyline)
            out.append(",\"precision\":6}")
        }
        if let u = r.uncertainty { writeUncertainty(u, to: &out) }
        if let c = r.calibration {
            out.append(",\"calibration\":")
            writeCalibration(c, to: &out)
        }
        writeWarnings(r.warnings, error: r.error, to: &out)
        out.append("}")
    }

    /// `{"orientation","correction","residual","matched","points","warnings"[,"carriedFrom"]}`: what
    /// `tapseek calibrate` prints and a calibrated result's `calibration`. Angles to 1e-4°.
    static func writeCalibration(_ c: Calibration, to out: inout OutputBuffer) {
        func angles(_ heading: Double, _ pitch: Double, _ roll: Double) {
            out.append("{\"heading\":")
            out.appendFixed(heading, decimals: 4)
            out.append(",\"pitch\":")
            out.appendFixed(pitch, decimals: 4)
            out.append(",\"roll\":")
            out.appendFixed(roll, decimals: 4)
            out.append("}")
        }
        out.append("{\"orientation\":")
        angles(c.heading, c.pitch, c.roll)
        out.append(",\"correction\":")
        angles(c.correction.heading, c.correction.pitch, c.correction.roll)
        out.append(",\"residual\":")
        out.appendFixed(c.residual, decimals: 4)
        out.append(",\"matched\":\(c.matched),\"points\":\(c.points)")
        if let line = c.carriedFrom { out.append(",\"carriedFrom\":\(line)") }
        writeWarnings(c.warnings, to: &out)
        out.append("}")
    }

    /// `"id":…,"line":N,` of a record, each when known.
    static func writeIdentity(id: String?, line: Int?, to out: inout OutputBuffer) {
        if let id {
            out.append("\"id\":")
            out.appendJSONString(id)
            out.append(",")
        }
        if let line { out.append("\"line\":\(line),") }
    }

    /// `,"uncertainty":{"samples","hitShare","region50","region95","distance","candidates","sigmas"}`.
    static func writeUncertainty(_ u: TargetUncertainty, to out: inout OutputBuffer) {
        out.append(",\"uncertainty\":{\"samples\":\(u.samples),\"hitShare\":")
        out.appendFixed(u.hitShare, decimals: 4)
        out.append(",\"region50\":")
        writeRegion(u.region50, to: &out)
        out.append(",\"region95\":")
        writeRegion(u.region95, to: &out)
        out.append(",\"distance\":{\"p2.5\":")
        out.appendFixed(u.distance.p2_5, decimals: 2)
        out.append(",\"p50\":")
        out.appendFixed(u.distance.p50, decimals: 2)
        out.append(",\"p97.5\":")
        out.appendFixed(u.distance.p97_5, decimals: 2)
        out.append("},\"candidates\":[")
        for (i, c) in u.candidates.enumerated() {
            if i > 0 { out.append(",") }
            out.append("{\"name\":")
            out.appendJSONString(c.name)
            out.append(",\"latitude\":")
            out.appendFixed(c.latitude, decimals: 7)
            out.append(",\"longitude\":")
            out.appendFixed(c.longitude, decimals: 7)
            out.append(",\"probability\":")
            out.appendFixed(c.probability, decimals: 4)
            out.append("}")
        }
        out.append("],\"sigmas\":{\"heading\":")
        out.appendShortest(u.sigmas.heading)
        out.append(",\"pitch\":")
        out.appendShortest(u.sigmas.pitch)
        out.append(",\"roll\":")
        out.appendShortest(u.sigmas.roll)
        out.append(",\"horizontal\":")
        out.appendShortest(u.sigmas.horizontal)
        out.append(",\"vertical\":")
        out.appendShortest(u.sigmas.vertical)
        out.append("}}")
    }

    /// A region as a GeoJSON Polygon (one part) or MultiPolygon, longitude first.
    static func writeRegion(_ region: TargetRegion, to out: inout OutputBuffer) {
        let multi = region.polygons.count != 1
        out.append(multi ? "{\"type\":\"MultiPolygon\",\"coordinates\":[" : "{\"type\":\"Polygon\",\"coordinates\":")
        for (i, ring) in region.polygons.enumerated() {
            if i > 0 { out.append(",") }
            out.append("[[")
            for (j, v) in ring.enumerated() {
                if j > 0 { out.append(",") }
                out.append("[")
                out.appendFixed(v.longitude, decimals: 7)
                out.append(",")
                out.appendFixed(v.latitude, decimals: 7)
                out.append("]")
            }
            out.append("]]")
        }
        out.append(multi ? "]}" : "}")
    }

    /// `{"latitude","longitude","altitude","groundElevation"}` of an observer.
    static func writeObserver(_ o: LocateResult.Observer, to out: inout OutputBuffer) {
        out.append("{\"latitude\":")
        out.appendFixed(o.latitude, decimals: 7)
        out.append(",\"longitude\":")
        out.appendFixed(o.longitude, decimals: 7)
        out.append(",\"altitude\":")
        out.appendFixed(o.altitude, decimals: 2)
        out.append(",\"groundElevation\":")
        if let g = o.groundElevation { out.appendFixed(g, decimals: 2) } else { out.append("null") }
        out.append("}")
    }

    /// `,"warnings":[…]`.
    static func writeWarnings(_ warnings: [String], to out: inout OutputBuffer) {
        out.append(",\"warnings\":[")
        for (i, w) in warnings.enumerated() {
            if i > 0 { out.append(",") }
            out.appendJSONString(w)
        }
        out.append("]")
    }

    /// `,"elevation","distance","slantRange"` of a target.
    static func writeMeasures(of t: LocateResult.Target, to out: inout OutputBuffer) {
        out.append(",\"elevation\":")
        out.appendFixed(t.elevation, decimals: 2)
        out.append(",\"distance\":")
        out.appendFixed(t.distance, decimals: 2)
        out.append(",\"slantRange\":")
        out.appendFixed(t.slantRange, decimals: 2)
    }

    /// `"azimuth","elevationAngle","refraction"` of a sightline (no leading comma).
    static func writeDirection(of s: LocateResult.Sightline, to out: inout OutputBuffer) {
        out.append("\"azimuth\":")
        out.appendFixed(s.azimuth, decimals: 6)
        out.append(",\"elevationAngle\":")
        out.appendFixed(s.elevationAngle, decimals: 6)
        out.append(",\"refraction\":")
        out.appendShortest(s.refraction)
    }

    /// `,"warnings":[…]` and, for a failure, `,"error":{"code","message"}`.
    static func writeWarnings(_ warnings: [String], error: LocateResult.Failure?, to out: inout OutputBuffer) {
        writeWarnings(warnings, to: &out)
        if let e = error {
            out.append(",\"error\":{\"code\":")
            out.appendJSONString(e.code)
            out.append(",\"message\":")
            out.appendJSONString(e.message)
            out.append("}")
        }
    }

    /// `"placemark":{…}` with only the keys that are known.
    static func writePlacemark(_ p: Placemark, to out: inout OutputBuffer) {
        out.append(",\"placemark\":{")
        var first = true
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            if !first { out.append(",") }
            first = false
            out.appendJSONString(key)
            out.append(":")
            out.appendJSONString(value)
        }
        field("isoCountryCode", p.isoCountryCode)
        field("country", p.country)
        field("administrativeArea", p.administrativeArea)
        field("subAdministrativeArea", p.subAdministrativeArea)
        field("locality", p.locality)
        if let d = p.localityDistance {
            if !first { out.append(",") }
            first = false
            out.append("\"localityDistance\":")
            out.appendFixed(d, decimals: 0)
        }
        field("ocean", p.ocean)
        field("inlandWater", p.inlandWater)
        field("name", p.name)
        field("timeZone", p.timeZone)
        if let claims = p.alsoClaimedBy {
            if !first { out.append(",") }
            first = false
            out.append("\"alsoClaimedBy\":[")
            for (k, code) in claims.enumerated() {
                if k > 0 { out.append(",") }
                out.appendJSONString(code)
            }
            out.append("]")
        }
        out.append("}")
    }
}
