import Foundation

/// Synthetic elevation tiles written through GDAL, so that tests can check the engine against
/// terrain whose every height they know in closed form.
///
/// The heights are first written as an ESRI ASCII grid (`.asc`, text GDAL reads natively) with
/// post-centred coordinates (`xllcenter`/`yllcenter`), then turned into a GeoTIFF with
/// `gdal_translate -a_srs EPSG:4326`, so the catalog reads the posts exactly where they were
/// put: post (row r, column c) at latitude `north − r·spacing`, longitude `west + c·spacing`.
public enum SyntheticTerrain {
    /// The nodata value written for NaN heights (voids), as SRTM GeoTIFFs use.
    public static let nodata: Float = -32767

    /// Writes `heights` (row-major, north row first, NaN for voids) as `name.tif` in `directory`
    /// and returns its URL. Spacing in degrees, the same along both axes (square cells in
    /// degrees, as the ASCII grid format wants).
    /// - Throws: when the file cannot be written or `gdal_translate` fails.
    public static func writeGeoTIFF(north: Double, west: Double, spacing: Double, rows: Int, columns: Int,
                                    heights: [Float], name: String, in directory: URL) throws -> URL {
        precondition(heights.count == rows * columns, "heights must have rows × columns values")
        let ascii = directory.appendingPathComponent("\(name).asc.txt")
        let tiff = directory.appendingPathComponent("\(name).tif")
        var text = """
            ncols \(columns)
            nrows \(rows)
            xllcenter \(exact(west))
            yllcenter \(exact(north - Double(rows - 1) * spacing))
            cellsize \(exact(spacing))
            NODATA_value \(Int(nodata))

            """
        text.reserveCapacity(text.utf8.count + heights.count * 10)
        for r in 0..<rows {
            let row = heights[(r * columns)..<((r + 1) * columns)]
            text += row.map { $0.isNaN ? String(Int(nodata)) : exact(Double($0)) }.joined(separator: " ")
            text += "\n"
        }
        // GDAL picks the AAIGrid driver from the content; the .txt suffix keeps the catalog,
        // which scans for .asc, from indexing the text as a second copy of the tile.
        try text.write(to: ascii, atomically: true, encoding: .utf8)
        try SharedData.run("gdal_translate", ["-q", "-of", "GTiff", "-ot", "Float32", "-a_srs", "EPSG:4326",
                                              "-a_nodata", String(Int(nodata)), "--config", "GDAL_PAM_ENABLED", "NO",
                                              ascii.path, tiff.path])
        try FileManager.default.removeItem(at: ascii)
        return tiff
    }

    /// A number written with every digit needed to read back the same Double.
    private static func exact(_ x: Double) -> String { "\(x)" }

    /// Closed-form answers for rays over synthetic terrain, written from the ellipsoid's
    /// geometry alone (no code of the engine), for tests to compare the march against.
    ///
    /// The ray model is the one the project's conventions define: a straight line in ECEF from
    /// the eye whose height above the ellipsoid is lowered by refraction, k·d²/(2R), where d is
    /// the horizontal part of the slant distance and R the Gaussian mean radius √(M·N) at the
    /// observer. Angles in degrees, lengths in metres, heights above the WGS84 ellipsoid.
    public enum Truth {
        /// WGS84 (NIMA TR8350.2): a = 6 378 137 m, f = 1/298.257223563.
        public static let a = 6_378_137.0
        public static let f = 1 / 298.257_223_563
        public static let e2 = f * (2 - f)
        public static var b: Double { a * (1 - f) }

        static func rad(_ degrees: Double) -> Double { degrees * .pi / 180 }

        /// Prime-vertical radius N(φ) and meridian radius M(φ).
        public static func primeVerticalRadius(_ latitude: Double) -> Double {
            a / (1 - e2 * sin(rad(latitude)) * sin(rad(latitude))).squareRoot()
        }
        public static func meridianRadius(_ latitude: Double) -> Double {
            let w2 = 1 - e2 * sin(rad(latitude)) * sin(rad(latitude))
            return a * (1 - e2) / (w2 * w2.squareRoot())
        }
        /// Gaussian mean radius √(M·N).
        public static func meanRadius(_ latitude: Double) -> Double {
            (meridianRadius(latitude) * primeVerticalRadius(latitude)).squareRoot()
        }
        /// Radius of curvature of the normal section in direction `azimuth` (Euler):
        /// 1/R = cos²α/M + sin²α/N.
        public static func radius(_ latitude: Double, azimuth: Double) -> Double {
            let c = cos(rad(azimuth)), s = sin(rad(azimuth))
            return 1 / (c * c / meridianRadius(latitude) + s * s / primeVerticalRadius(latitude))
        }

        /// Geodetic → ECEF, metres.
        public static func ecef(_ latitude: Double, _ longitude: Double, _ height: Double) -> (x: Double, y: Double, z: Double) {
            let n = primeVerticalRadius(latitude)
            let p = (n + height) * cos(rad(latitude))
            return (p * cos(rad(longitude)), p * sin(rad(longitude)), (n * (1 - e2) + height) * sin(rad(latitude)))
        }

        /// The ECEF unit vector of a direction given by azimuth and elevation at a point.
        public static func direction(_ latitude: Double, _ longitude: Double, azimuth: Double,
                                     elevation: Double) -> (x: Double, y: Double, z: Double) {
            let east = cos(rad(elevation)) * sin(rad(azimuth)), north = cos(rad(elevation)) * cos(rad(azimuth))
            let up = sin(rad(elevation))
            let sp = sin(rad(latitude)), cp = cos(rad(latitude)), sl = sin(rad(longitude)), cl = cos(rad(longitude))
            return (-sl * east - sp * cl * north + cp * cl * up,
                    cl * east - sp * sl * north + cp * sl * up,
                    cp * north + sp * up)
        }

        /// Slant distance from the eye to where the ray meets terrain of constant ellipsoidal
        /// height `plateau`; nil when it does not.
        ///
        /// The surface of constant height h is taken as the ellipsoid with semi-axes (a + h,
        /// b + h): it departs from the true parallel surface by at most 1.4 mm per kilometre of
        /// h (checked numerically over all latitudes), so by < 1 cm up to 7 km. The line meets
        /// that ellipsoid where a quadratic vanishes. Refraction lowers the ray by k·d²/(2R),
        /// which is the same as raising the surface by that much at the hit: the quadratic is
        /// re-solved with the raised height until the distance settles (three rounds reach
        /// 1e−9 m, since the raise changes by millimetres between rounds).
        public static func plateauSlantDistance(latitude: Double, longitude: Double, eyeHeight: Double, azimuth: Double,
                                                elevation: Double, plateau: Double, refraction k: Double) -> Double? {
            let p = ecef(latitude, longitude, eyeHeight)
            let u = direction(latitude, longitude, azimuth: azimuth, elevation: elevation)
            let radius = meanRadius(latitude)
            let horizontal = cos(rad(elevation))
            var s = 0.0
            for _ in 0..<20 {
                let d = s * horizontal
                let h = plateau + k * d * d / (2 * radius)
                let a2 = (a + h) * (a + h), b2 = (b + h) * (b + h)
                let qa = (u.x * u.x + u.y * u.y) / a2 + u.z * u.z / b2
                let qb = 2 * ((p.x * u.x + p.y * u.y) / a2 + p.z * u.z / b2)
                let qc = (p.x * p.x + p.y * p.y) / a2 + p.z * p.z / b2 - 1
                let discriminant = qb * qb - 4 * qa * qc
                guard discriminant >= 0 else { return nil }
                // The nearer root, written to avoid cancellation.
                let q = -0.5 * (qb + (qb < 0 ? -1 : 1) * discriminant.squareRoot())
                let roots = [q / qa, qc / q].filter { $0 > 0 }.sorted()
                guard let next = roots.first else { return nil }
                if abs(next - s) < 1e-9 { return next }
                s = next
            }
            return s
        }

        /// Slant distance to where a ray meets the near flank of a cone: apex at ground distance
        /// `apexDistance` straight ahead along the ray's azimuth, apex height `apexHeight` and
        /// flank slope `slope` (tan of the flank's inclination), all heights ellipsoidal.
        ///
        /// In the eye's vertical plane, at horizontal distance d the ray is z = d·tan e above the
        /// tangent plane, at height h₀ + z + d²/(2R_α) − k·d²/(2R) (the ellipsoid falls away
        /// below the tangent plane with the normal section's radius R_α). Its foot lies
        /// R_α·d/(R_α + h₀ + z) ≈ g·d − d²·tan e/R_α along the ground, g = R_α/(R_α + h₀), where
        /// the flank is apexHeight − slope·(apexDistance − ground). Equating gives a quadratic in
        /// d. Neglected terms: of order d³/R² and d·(h/R)², below 1 mm for d < 5 km.
        public static func coneSlantDistance(latitude: Double, eyeHeight: Double, azimuth: Double, elevation: Double,
                                             apexDistance: Double, apexHeight: Double, slope: Double,
                                             refraction k: Double) -> Double? {
            let rAlpha = radius(latitude, azimuth: azimuth)
            let r = meanRadius(latitude)
            let groundPerHorizontal = rAlpha / (rAlpha + eyeHeight)
            let qa = (1 / rAlpha - k / r) / 2 + slope * tan(rad(elevation)) / rAlpha
            let qb = tan(rad(elevation)) - slope * groundPerHorizontal
            let qc = eyeHeight - apexHeight + slope * apexDistance
            let discriminant = qb * qb - 4 * qa * qc
            guard discriminant >= 0 else { return nil }
            let q = -0.5 * (qb + (qb < 0 ? -1 : 1) * discriminant.squareRoot())
            guard let d = [q / qa, qc / q].filter({ $0 > 0 }).min() else { return nil }
            return d / cos(rad(elevation))
        }
    }
}
