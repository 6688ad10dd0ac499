import TapSeek

/// The panorama JSON and GeoJSON of `tapseek panorama`, written like the result JSON: angles to
/// 1e-6°, positions to 1e-7° (1 cm), heights and distances to the centimetre.
enum PanoramaWriter {
    static func writeJSON(_ r: PanoramaResult, to out: inout OutputBuffer) {
        let p = r.panorama
        out.append("{")
        writeObserverAndSettings(r, to: &out)
        out.append(",\"skyline\":[")
        for (i, point) in p.skyline.enumerated() {
            if i > 0 { out.append(",") }
            out.append("{\"azimuth\":")
            out.appendFixed(point.azimuth, decimals: 6)
            out.append(",\"elevationAngle\":")
            guard let angle = point.elevationAngle else {
                out.append("null}")
                continue
            }
            out.appendFixed(angle, decimals: 6)
            writePlace(distance: point.distance, latitude: point.latitude, longitude: point.longitude, elevation: point.elevation, to: &out)
            out.append("}")
        }
        out.append("],\"peaks\":[")
        for (i, peak) in p.peaks.enumerated() {
            if i > 0 { out.append(",") }
            writePeakProperties(peak, to: &out)
        }
        out.append("]")
        ResultJSON.writeWarnings(r.warnings, to: &out)
        out.append("}")
    }

    /// `"observer":{…},"refraction","azimuthStep","range"` (no braces).
    private static func writeObserverAndSettings(_ r: PanoramaResult, to out: inout OutputBuffer) {
        out.append("\"observer\":")
        out.appendJSON(r.observer)
        out.append(",\"refraction\":")
        out.appendShortest(r.panorama.settings.refraction)
        out.append(",\"azimuthStep\":")
        out.appendShortest(r.panorama.settings.azimuthStep)
        out.append(",\"range\":")
        out.appendFixed(r.panorama.range, decimals: 2)
    }

    /// `{"role"?,"azimuth","elevationAngle","distance","latitude","longitude","elevation","prominence","name"?}`.
    private static func writePeakProperties(_ peak: Panorama.Peak, role: StaticString? = nil, to out: inout OutputBuffer) {
        out.append("{")
        if let role {
            out.append("\"role\":\"")
            out.append(role)
            out.append("\",")
        }
        out.append("\"azimuth\":")
        out.appendFixed(peak.azimuth, decimals: 6)
        out.append(",\"elevationAngle\":")
        out.appendFixed(peak.elevationAngle, decimals: 6)
        writePlace(distance: peak.distance, latitude: peak.latitude, longitude: peak.longitude, elevation: peak.elevation, to: &out)
        out.append(",\"prominence\":")
        out.appendFixed(peak.prominence, decimals: 6)
        if let name = peak.name {
            out.append(",\"name\":")
            out.appendJSONString(name)
        }
        out.append("}")
    }

    /// `,"distance","latitude","longitude","elevation"`.
    private static func writePlace(distance: Double, latitude: Double, longitude: Double, elevation: Double,
                                   to out: inout OutputBuffer) {
        out.append(",\"distance\":")
        out.appendFixed(distance, decimals: 2)
        out.append(",\"latitude\":")
        out.appendFixed(latitude, decimals: 7)
        out.append(",\"longitude\":")
        out.appendFixed(longitude, decimals: 7)
        out.append(",\"elevation\":")
        out.appendFixed(elevation, decimals: 2)
    }

    /// An RFC 7946 FeatureCollection: the observer (Point), the skyline's touching points as a
    /// LineString in azimuth order (split where an azimuth has no terrain), and a Point per peak
    /// with its properties. Heights in coordinates are ellipsoidal (mean sea level + EGM96), as
    /// RFC 7946 asks; properties keep mean sea level.
    static func writeGeoJSON(_ r: PanoramaResult, geoid: Geoid, to out: inout OutputBuffer) {
        typealias Position = GeoJSONWriter.Position
        func ellipsoidal(_ latitude: Double, _ longitude: Double, _ msl: Double) -> Position {
            Position(longitude: longitude, latitude: latitude,
                     height: msl.isFinite ? msl + geoid.undulation(latitude: latitude, longitude: longitude) : nil)
        }
        let p = r.panorama
        out.append("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":")
        GeoJSONWriter.writePoint(ellipsoidal(r.observer.latitude, r.observer.longitude, r.observer.altitude), to: &out)
        out.append(",\"properties\":{\"role\":\"observer\",")
        writeObserverAndSettings(r, to: &out)
        ResultJSON.writeWarnings(r.warnings, to: &out)
        out.append("}}")
        var runs: [[Position]] = [[]]
        for point in p.skyline {
            if point.elevationAngle == nil {
                if !runs[runs.count - 1].isEmpty { runs.append([]) }
                continue
            }
            runs[runs.count - 1].append(ellipsoidal(point.latitude, point.longitude, point.elevation))
        }
        if runs.contains(where: { $0.count >= 2 }) {
            out.append(",{\"type\":\"Feature\",\"geometry\":")
            GeoJSONWriter.writeLines(runs, to: &out)
            out.append(",\"properties\":{\"role\":\"skyline\"}}")
        }
        for peak in p.peaks {
            out.append(",{\"type\":\"Feature\",\"geometry\":")
            GeoJSONWriter.writePoint(ellipsoidal(peak.latitude, peak.longitude, peak.elevation), to: &out)
            out.append(",\"properties\":")
            writePeakProperties(peak, role: "peak", to: &out)
            out.append("}")
        }
        out.append("]}")
    }
}
