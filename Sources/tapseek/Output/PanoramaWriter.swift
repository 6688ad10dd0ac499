import TapSeek

/// The panorama JSON (the library's `PanoramaResult` encoding) and GeoJSON of `tapseek panorama`.
enum PanoramaWriter {
    /// An RFC 7946 FeatureCollection: the observer (Point), the skyline's touching points as a
    /// LineString in azimuth order (split where an azimuth has no terrain) — one feature with
    /// `"complete":true` for the settled azimuths, one with `false` for those whose search left
    /// the DEM (``Panorama/Point/complete``) — and a Point per peak
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
        out.appendJSONMembers(of: ObserverProperties(result: r))
        out.append("}}")
        // Settled and incomplete azimuths apart: a map must not show the DEM's edge as skyline.
        for complete in [true, false] {
            var runs: [[Position]] = [[]]
            for point in p.skyline {
                if point.elevationAngle == nil || point.complete != complete {
                    if !runs[runs.count - 1].isEmpty { runs.append([]) }
                    continue
                }
                runs[runs.count - 1].append(ellipsoidal(point.latitude, point.longitude, point.elevation))
            }
            if runs.contains(where: { $0.count >= 2 }) {
                out.append(",{\"type\":\"Feature\",\"geometry\":")
                GeoJSONWriter.writeLines(runs, to: &out)
                out.append(",\"properties\":{\"role\":\"skyline\",\"complete\":\(complete)}}")
            }
        }
        for peak in p.peaks {
            out.append(",{\"type\":\"Feature\",\"geometry\":")
            GeoJSONWriter.writePoint(ellipsoidal(peak.latitude, peak.longitude, peak.elevation), to: &out)
            out.append(",\"properties\":{\"role\":\"peak\",")
            out.appendJSONMembers(of: peak)
            out.append("}}")
        }
        out.append("]}")
    }
}

/// The observer feature's properties: the panorama JSON without its skyline and peaks.
private struct ObserverProperties: Encodable {
    let result: PanoramaResult
    func encode(to encoder: any Encoder) throws { try result.encode(to: encoder, skylineAndPeaks: false) }
}
