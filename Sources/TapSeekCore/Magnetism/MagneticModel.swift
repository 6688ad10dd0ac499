import Foundation

/// A spherical-harmonic model of the Earth's main magnetic field with linear secular variation,
/// in the form of the World Magnetic Model (WMM). ``wmm`` is the one the engine uses: WMM2025,
/// with WMM2020 for readings of 2020–2025.
///
/// The synthesis follows the WMM2025 technical report (NOAA NCEI / BGS): geodetic coordinates on
/// WGS84 become geocentric spherical ones, the Gauss coefficients are advanced linearly from the
/// epoch, the field is summed over Schmidt semi-normalised associated Legendre functions to
/// degree ``degree`` and rotated back to the geodetic north-east-down frame. Agreement with
/// NOAA's published test values: declination and inclination to 0.01°, components to 0.1 nT
/// (see `MagneticModelTests`). The model itself is accurate to about 0.3–0.5° of declination
/// away from the magnetic poles (WMM2025 report); local crustal anomalies are not in it.
public struct MagneticModel: Sendable, Hashable {
    /// The model's name, as in the coefficient file header (e.g. "WMM-2025").
    public let name: String
    /// Reference epoch of the coefficients, decimal year.
    public let epoch: Double
    /// Decimal years in which the model may be evaluated; it refuses other times.
    public let validity: ClosedRange<Double>
    /// Maximum spherical-harmonic degree (and order).
    public let degree: Int
    /// Models of earlier years that answer for times before ``validity`` (newest first).
    public let earlier: [MagneticModel]

    // Coefficients in nT and nT/year, flattened in the order (n, m) = (0,0), (1,0), (1,1), (2,0)…:
    // index n(n+1)/2 + m.
    private let g: [Double]
    private let h: [Double]
    private let gDot: [Double]
    private let hDot: [Double]

    /// Geomagnetic reference radius of the WMM, km (WMM2025 report).
    public static let referenceRadiusKm = 6_371.2
    /// The WMM is issued for five years from its epoch.
    public static let wmmValidityYears = 5.0

    /// The World Magnetic Model 2025, degree 12, valid 2025.0–2030.0 (NOAA NCEI / NGA, public
    /// domain; coefficients embedded from `WMM_2025.COF`).
    public static let wmm2025 = MagneticModel(
        name: "WMM-2025", epoch: 2025.0, validity: 2025.0...2030.0, degree: 12,
        rows: wmm2025CoefficientRows)

    /// The World Magnetic Model 2020, degree 12, valid 2020.0–2025.0 (NOAA NCEI / BGS, public
    /// domain; coefficients embedded from `WMM_2020.COF`).
    public static let wmm2020 = MagneticModel(
        name: "WMM-2020", epoch: 2020.0, validity: 2020.0...2025.0, degree: 12,
        rows: wmm2020CoefficientRows)

    /// WMM2025, and WMM2020 for earlier times: valid 2020.0–2030.0, each time answered by the
    /// model issued for it (2025.0 itself by WMM2025).
    public static let wmm = MagneticModel(
        name: "WMM-2025", epoch: 2025.0, validity: 2025.0...2030.0, degree: 12,
        rows: wmm2025CoefficientRows, earlier: [wmm2020])

    /// A model from explicit coefficient rows (n, m, g, h, ġ, ḣ) in nT and nT/year; degrees and
    /// orders not listed are zero.
    public init(name: String, epoch: Double, validity: ClosedRange<Double>, degree: Int,
                rows: [(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double)], earlier: [MagneticModel] = []) {
        self.name = name
        self.earlier = earlier
        self.epoch = epoch
        self.validity = validity
        self.degree = degree
        let count = (degree + 1) * (degree + 2) / 2
        var g = [Double](repeating: 0, count: count), h = g, gDot = g, hDot = g
        for row in rows where row.n >= 1 && row.n <= degree && row.m >= 0 && row.m <= row.n {
            let i = Self.index(row.n, row.m)
            g[i] = row.g
            h[i] = row.h
            gDot[i] = row.gDot
            hDot[i] = row.hDot
        }
        self.g = g
        self.h = h
        self.gDot = gDot
        self.hDot = hDot
    }

    /// Reads a coefficient file in NOAA's `.COF` layout: a header line "epoch name date", then
    /// lines "n m g h ġ ḣ", ended by a line of 9s or the end of the text. The model is valid for
    /// ``wmmValidityYears`` from its epoch.
    /// - Throws: ``MagneticModelError`` naming the first unreadable line.
    public init(cof text: String) throws(MagneticModelError) {
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated()
            .map { (number: $0.offset + 1, fields: $0.element.split(whereSeparator: \.isWhitespace)) }
            .filter { !$0.fields.isEmpty }
        guard let header = lines.first, header.fields.count >= 2, let epoch = Double(header.fields[0]),
              epoch.isFinite else {
            throw MagneticModelError(.invalidCoefficients,
                                     "coefficient file line 1: expected a header \"epoch name date\"")
        }
        lines.removeFirst()
        var rows: [(n: Int, m: Int, g: Double, h: Double, gDot: Double, hDot: Double)] = []
        var degree = 0
        for line in lines {
            if line.fields.count == 1, line.fields[0].allSatisfy({ $0 == "9" }) { break }
            guard line.fields.count == 6, let n = Int(line.fields[0]), let m = Int(line.fields[1]),
                  n >= 1, n <= 100, m >= 0, m <= n else {
                throw MagneticModelError(.invalidCoefficients,
                                         "coefficient file line \(line.number): expected \"n m g h gdot hdot\" with 0 ≤ m ≤ n")
            }
            let values = line.fields[2...].compactMap { Double($0) }.filter(\.isFinite)
            guard values.count == 4 else {
                throw MagneticModelError(.invalidCoefficients,
                                         "coefficient file line \(line.number): coefficients must be finite numbers")
            }
            rows.append((n, m, values[0], values[1], values[2], values[3]))
            degree = max(degree, n)
        }
        guard degree >= 1 else {
            throw MagneticModelError(.invalidCoefficients, "coefficient file has no coefficient lines")
        }
        self.init(name: String(header.fields[1]), epoch: epoch,
                  validity: epoch...(epoch + Self.wmmValidityYears), degree: degree, rows: rows)
    }

    @inline(__always) private static func index(_ n: Int, _ m: Int) -> Int { n * (n + 1) / 2 + m }

    /// The coefficients (g, h, ġ, ḣ) of degree `n` and order `m`, nT and nT/year; zero outside
    /// the model.
    public func coefficients(n: Int, m: Int) -> (g: Double, h: Double, gDot: Double, hDot: Double) {
        guard n >= 1, n <= degree, m >= 0, m <= n else { return (0, 0, 0, 0) }
        let i = Self.index(n, m)
        return (g[i], h[i], gDot[i], hDot[i])
    }

    /// The main field at a point and time.
    ///
    /// - Parameters:
    ///   - latitude: geodetic latitude, degrees, −90…90 (the poles are handled without
    ///     singularity).
    ///   - longitude: degrees east, any finite value.
    ///   - height: metres above the WGS84 ellipsoid. A mean-sea-level height is good enough:
    ///     100 m of height changes the field by about 2 nT and the declination by < 0.01°.
    ///   - decimalYear: time as a decimal year (see ``decimalYear(_:)``), within ``validity``.
    /// - Throws: ``MagneticModelError`` for a time outside ``validity`` (the model is never
    ///   extrapolated) or a non-finite or out-of-range position.
    public func field(latitude: Double, longitude: Double, height: Double,
                      decimalYear t: Double) throws(MagneticModelError) -> MagneticField {
        guard t.isFinite, validity.contains(t) else {
            if t.isFinite, let model = earlier.first(where: { $0.validity.contains(t) }) {
                return try model.field(latitude: latitude, longitude: longitude, height: height, decimalYear: t)
            }
            let models = ([self] + earlier).map { "\($0.name) (\(Self.format($0.validity.lowerBound))–\(Self.format($0.validity.upperBound)))" }
            throw MagneticModelError(.outsideValidity,
                                     "time \(Self.format(t)) is outside the validity of \(models.joined(separator: " and ")); refusing to extrapolate the magnetic declination")
        }
        guard latitude.isFinite, abs(latitude) <= 90 else {
            throw MagneticModelError(.invalidPosition, "latitude must be within −90…90, got \(latitude)")
        }
        guard longitude.isFinite else {
            throw MagneticModelError(.invalidPosition, "longitude must be a finite number, got \(longitude)")
        }
        guard height.isFinite else {
            throw MagneticModelError(.invalidPosition, "height must be a finite number, got \(height)")
        }
        return synthesize(latitude: radians(latitude), longitude: radians(longitude),
                          heightKm: height / 1000, years: t - epoch)
    }

    /// The main field at a point at the instant `date` (UTC); see
    /// ``field(latitude:longitude:height:decimalYear:)``.
    public func field(latitude: Double, longitude: Double, height: Double,
                      date: Date) throws(MagneticModelError) -> MagneticField {
        try field(latitude: latitude, longitude: longitude, height: height, decimalYear: decimalYear(date))
    }

    /// Magnetic declination D, degrees east of true north in (−180, 180]: true = magnetic + D.
    /// Arguments as in ``field(latitude:longitude:height:decimalYear:)``.
    public func declination(latitude: Double, longitude: Double, height: Double,
                            date: Date) throws(MagneticModelError) -> Double {
        try field(latitude: latitude, longitude: longitude, height: height, date: date).declination
    }

    /// A compass (magnetic) heading turned into a true heading, degrees in [0, 360):
    /// magnetic + declination at the observer.
    /// Other arguments as in ``field(latitude:longitude:height:decimalYear:)``.
    public func magneticToTrue(heading: Double, latitude: Double, longitude: Double, height: Double,
                               date: Date) throws(MagneticModelError) -> Double {
        normalizedAzimuth(heading + (try declination(latitude: latitude, longitude: longitude,
                                                     height: height, date: date)))
    }

    private static func format(_ year: Double) -> String {
        year.isFinite ? String(format: "%.3f", year) : "\(year)"
    }

    /// The synthesis proper. Angles in radians, height in km, `years` since the epoch.
    private func synthesize(latitude phi: Double, longitude lambda: Double, heightKm: Double,
                            years: Double) -> MagneticField {
        // Geodetic → geocentric spherical (r, φ′) on WGS84, in km.
        let ellipsoid = Ellipsoid.wgs84
        let a = ellipsoid.semiMajorAxis / 1000, e2 = ellipsoid.eccentricitySquared
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let primeVertical = a / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let p = (primeVertical + heightKm) * cosPhi
        let z = (primeVertical * (1 - e2) + heightKm) * sinPhi
        let r = (p * p + z * z).squareRoot()
        // With colatitude θ = 90° − φ′: cos θ = sin φ′ = z / r, sin θ = cos φ′ = p / r.
        let x = z / r, s = p / r

        // Schmidt semi-normalised P̆ₙᵐ(cos θ) and dP̆ₙᵐ/dθ. For m ≥ 1 carry Qₙᵐ = P̆ₙᵐ / sin θ
        // instead of P̆ₙᵐ: every P̆ₙᵐ with m ≥ 1 holds a factor sin θ, so Q stays finite at the
        // poles, where the east component's 1 / cos φ′ would otherwise divide zero by zero.
        let count = (degree + 1) * (degree + 2) / 2
        var pq = [Double](repeating: 0, count: count)   // P̆ₙ⁰ for m = 0, Qₙᵐ for m ≥ 1
        var dp = [Double](repeating: 0, count: count)   // dP̆ₙᵐ/dθ
        func P(_ n: Int, _ m: Int) -> Double { m == 0 ? pq[Self.index(n, 0)] : s * pq[Self.index(n, m)] }
        pq[0] = 1
        for m in 0...degree {
            if m >= 1 {
                let d = Self.index(m, m)
                if m == 1 {
                    pq[d] = 1           // Q₁¹ = sin θ / sin θ
                    dp[d] = x           // d(sin θ)/dθ
                } else {
                    let k = (Double(2 * m - 1) / Double(2 * m)).squareRoot()
                    let prev = Self.index(m - 1, m - 1)
                    pq[d] = k * s * pq[prev]
                    dp[d] = k * (x * P(m - 1, m - 1) + s * dp[prev])
                }
            }
            // Upward in degree at fixed order; the same recursion holds for P̆ and for Q because
            // it is linear and its coefficients do not involve sin θ.
            if m + 1 <= degree {
                for n in (m + 1)...degree {
                    let i = Self.index(n, m), i1 = Self.index(n - 1, m)
                    let nm = (Double(n * n - m * m)).squareRoot()
                    let back = n - 2 >= m ? (Double((n - 1) * (n - 1) - m * m)).squareRoot() : 0
                    let pq2 = n - 2 >= m ? pq[Self.index(n - 2, m)] : 0
                    let dp2 = n - 2 >= m ? dp[Self.index(n - 2, m)] : 0
                    pq[i] = (Double(2 * n - 1) * x * pq[i1] - back * pq2) / nm
                    dp[i] = (Double(2 * n - 1) * (x * dp[i1] - s * P(n - 1, m)) - back * dp2) / nm
                }
            }
        }

        var cosM = [Double](repeating: 1, count: degree + 1), sinM = [Double](repeating: 0, count: degree + 1)
        for m in 1...degree {
            cosM[m] = cos(Double(m) * lambda)
            sinM[m] = sin(Double(m) * lambda)
        }

        // Field in the geocentric spherical frame: X′ north, Y′ east, Z′ toward the centre.
        var xPrime = 0.0, yPrime = 0.0, zPrime = 0.0
        let ratio = Self.referenceRadiusKm / r
        var radial = ratio * ratio                      // (a/r)^(n+2), starting at n = 0
        for n in 1...degree {
            radial *= ratio
            for m in 0...n {
                let i = Self.index(n, m)
                let gt = g[i] + years * gDot[i], ht = h[i] + years * hDot[i]
                let along = gt * cosM[m] + ht * sinM[m]
                xPrime += radial * along * dp[i]       // −dP̆/dφ′ = +dP̆/dθ
                zPrime -= Double(n + 1) * radial * along * P(n, m)
                if m >= 1 {
                    yPrime += radial * Double(m) * (gt * sinM[m] - ht * cosM[m]) * pq[i]
                }
            }
        }

        // Rotate from geocentric to geodetic north/down by the angle φ′ − φ.
        let psi = atan2(z, p) - phi
        let cosPsi = cos(psi), sinPsi = sin(psi)
        return MagneticField(north: xPrime * cosPsi - zPrime * sinPsi,
                             east: yPrime,
                             down: xPrime * sinPsi + zPrime * cosPsi)
    }
}
