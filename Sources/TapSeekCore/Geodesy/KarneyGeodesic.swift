import Foundation

/// Geodesics on an ellipsoid of revolution in pure Swift: the direct problem (start, azimuth,
/// distance → end) and the inverse problem (two points → distance and azimuths).
///
/// The method is C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013): the
/// geodesic is mapped onto an auxiliary sphere, where the distance and longitude integrals are
/// Fourier series in the arc length whose coefficients are expansions to sixth order in
/// ε = (√(1 + k²) − 1)/(√(1 + k²) + 1) and in the third flattening n (the paper's eqs. 15–25;
/// the coefficient values are those its Maxima derivation gives). The inverse problem solves
/// λ₁₂(α₁) = λ₁₂ for the azimuth α₁ by Newton's method from a spherical (or, near antipodal
/// points, astroid) first guess, bisecting when a Newton step leaves the bracket (§ 4–5).
/// Accurate to about 15 nm for |f| ≤ 1/50 (the paper's Table 1 for WGS84).
///
/// Latitudes, longitudes and azimuths in degrees (azimuths clockwise from north, in (−180, 180]);
/// distances in metres along the ellipsoid surface.
public struct KarneyGeodesic: Sendable {
    /// The solution of a direct or inverse problem.
    public struct Line: Sendable, Hashable {
        public var latitude1: Double, longitude1: Double, azimuth1: Double
        public var latitude2: Double, longitude2: Double, azimuth2: Double
        /// Geodesic distance, metres.
        public var distance: Double
    }

    public let ellipsoid: Ellipsoid
    private let a, f, f1, ep2, n, b, etol2: Double
    /// Coefficients of A₃ in ε (index 0…5) and of C₃ₗ (15), polynomials in n.
    private let a3x: SIMD8<Double>
    private let c3x: SIMD16<Double>

    /// WGS84's geodesics.
    public static let wgs84 = KarneyGeodesic(ellipsoid: .wgs84)

    public init(ellipsoid: Ellipsoid) {
        self.ellipsoid = ellipsoid
        a = ellipsoid.semiMajorAxis
        f = ellipsoid.flattening
        f1 = 1 - f
        let e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        // The arc below which the auxiliary sphere with a mean dn answers to machine precision
        // ("really short lines"), with a safety factor of 0.1.
        etol2 = 0.1 * Self.tol2 / (max(0.001, abs(f)) * min(1, 1 - f / 2) / 2).squareRoot()
        var a3 = SIMD8<Double>()
        a3[0] = 1
        a3[1] = (n - 1) / 2
        a3[2] = (n * (3 * n - 1) - 2) / 8
        a3[3] = ((-n - 3) * n - 1) / 16
        a3[4] = (-2 * n - 3) / 64
        a3[5] = -3.0 / 128
        a3x = a3
        var c3 = SIMD16<Double>()
        c3[0] = (1 - n) / 4
        c3[1] = (1 - n * n) / 8
        c3[2] = ((3 - n) * n + 3) / 64
        c3[3] = (2 * n + 5) / 128
        c3[4] = 3.0 / 128
        c3[5] = ((n - 3) * n + 2) / 32
        c3[6] = ((-3 * n - 2) * n + 3) / 64
        c3[7] = (n + 3) / 128
        c3[8] = 5.0 / 256
        c3[9] = (n * (5 * n - 9) + 5) / 192
        c3[10] = (9 - 10 * n) / 384
        c3[11] = 7.0 / 512
        c3[12] = (7 - 14 * n) / 512
        c3[13] = 7.0 / 512
        c3[14] = 21.0 / 2560
        c3x = c3
    }

    // MARK: Tolerances (the paper's § 5, for 53-bit doubles)

    private static let order = 6
    private static let tol0 = Double.ulpOfOne
    private static let tol1 = 200 * tol0
    private static let tol2 = tol0.squareRoot()
    private static let tolb = tol0 * tol2
    private static let xthresh = 1000 * tol2
    private static let tiny = Double.leastNormalMagnitude.squareRoot()
    private static let newtonIterations = 20
    private static let maximumIterations = newtonIterations + Double.significandBitCount + 1 + 10
    private static let degree = Double.pi / 180

    // MARK: Direct problem

    /// The point `distance` metres from (latitude, longitude) along the geodesic that leaves it
    /// at `azimuth`, and the geodesic's azimuth there. Longitude of the end in (−180, 180].
    public func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> Line {
        let azi1 = angleRound(angleNormalize(azimuth))
        let alp1 = azi1 * Self.degree
        // Exact zeros where sine and cosine must vanish.
        let salp1 = abs(azi1) == 180 ? 0 : sin(alp1)
        let calp1 = abs(azi1) == 90 ? 0 : cos(alp1)
        var (sbet1, cbet1) = (f1 * sin(latitude * Self.degree), abs(latitude) == 90 ? Self.tiny : cos(latitude * Self.degree))
        normalize(&sbet1, &cbet1)
        // Clairaut: sin α₀ = sin α₁ cos β₁, the azimuth where the geodesic crosses the equator.
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        // σ₁ from tan β₁ = tan σ₁ cos α₁, ω₁ from tan ω₁ = sin α₀ tan σ₁.
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        let comg1 = csig1
        normalize(&ssig1, &csig1)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)

        let a1m1 = Self.a1m1(eps)
        let c1 = Self.c1(eps), c1p = Self.c1p(eps), c3 = c3Coefficients(eps)
        let b11 = Self.sinCosSeries(sine: true, ssig1, csig1, c1, count: Self.order)
        let (sb, cb) = (sin(b11), cos(b11))
        let stau1 = ssig1 * cb + csig1 * sb, ctau1 = csig1 * cb - ssig1 * sb
        let a3c = -f * salp0 * a3(eps)
        let b31 = Self.sinCosSeries(sine: true, ssig1, csig1, c3, count: Self.order - 1)

        // Distance → arc on the auxiliary sphere by the reverted series (eq. 21).
        let tau12 = distance / (b * (1 + a1m1))
        let (st, ct) = (sin(tau12), cos(tau12))
        let b12 = -Self.sinCosSeries(sine: true, stau1 * ct + ctau1 * st, ctau1 * ct - stau1 * st, c1p, count: Self.order)
        var sig12 = tau12 - (b12 - b11)
        var ssig12 = sin(sig12), csig12 = cos(sig12)
        if abs(f) > 0.01 {
            // The reverted series loses accuracy for |f| > 1/100: one Newton step on eq. 7.
            let ssig2 = ssig1 * csig12 + csig1 * ssig12, csig2 = csig1 * csig12 - ssig1 * ssig12
            let b12n = Self.sinCosSeries(sine: true, ssig2, csig2, c1, count: Self.order)
            let error = (1 + a1m1) * (sig12 + (b12n - b11)) - distance / b
            sig12 -= error / (1 + k2 * ssig2 * ssig2).squareRoot()
            ssig12 = sin(sig12)
            csig12 = cos(sig12)
        }
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let sbet2 = calp0 * ssig2
        var cbet2 = hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // A meridian through the pole: break the degeneracy.
            cbet2 = Self.tiny
            csig2 = Self.tiny
        }
        let somg2 = salp0 * ssig2, comg2 = csig2
        let salp2 = salp0, calp2 = calp0 * csig2
        let omg12 = atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + a3c * (sig12 + (Self.sinCosSeries(sine: true, ssig2, csig2, c3, count: Self.order - 1) - b31))
        let lon12 = angleNormalize(remainder(lam12 / Self.degree, 360))
        return Line(latitude1: latitude, longitude1: longitude, azimuth1: azimuth,
                    latitude2: atan2(sbet2, f1 * cbet2) / Self.degree,
                    longitude2: angleNormalize(angleNormalize(longitude) + lon12),
                    azimuth2: Self.azimuthDegrees(salp2, calp2), distance: distance)
    }

    // MARK: Inverse problem

    /// The shortest geodesic between two points: its length and its azimuths at both ends.
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Line {
        let g = inverseSolution(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
        return Line(latitude1: latitude1, longitude1: longitude1, azimuth1: Self.azimuthDegrees(g.salp1, g.calp1),
                    latitude2: latitude2, longitude2: longitude2, azimuth2: Self.azimuthDegrees(g.salp2, g.calp2),
                    distance: 0 + g.s12)
    }

    /// The length of the shortest geodesic between two points, metres: ``inverse(latitude1:longitude1:latitude2:longitude2:)``'s
    /// `distance`, to the bit, without the azimuths (two `atan2`, 300 instructions of a
    /// located reading's 5 000 for its distance).
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        0 + inverseSolution(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2).s12
    }

    /// The inverse problem's sines and cosines of the azimuths at both ends and its length.
    @inline(__always)
    private func inverseSolution(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double)
        -> (salp1: Double, calp1: Double, salp2: Double, calp2: Double, s12: Double) {
        // Bring the problem to the canonical form 0 ≤ λ₁₂ ≤ 180, φ₁ ≤ 0, φ₁ ≤ φ₂ ≤ −φ₁;
        // the signs record how to undo it.
        var lon12 = angleRound(angleDifference(angleNormalize(longitude1), angleNormalize(longitude2)))
        var lonSign: Double = lon12 >= 0 ? 1 : -1
        lon12 *= lonSign
        var lat1 = angleRound(latitude1), lat2 = angleRound(latitude2)
        let swap: Double = abs(lat1) >= abs(lat2) ? 1 : -1
        if swap < 0 {
            lonSign = -lonSign
            Swift.swap(&lat1, &lat2)
        }
        let latSign: Double = lat1 < 0 ? 1 : -1
        lat1 *= latSign
        lat2 *= latSign

        // Reduced latitudes β, with cos β = +tiny at the poles.
        var sbet1 = f1 * sin(lat1 * Self.degree), cbet1 = lat1 == -90 ? Self.tiny : cos(lat1 * Self.degree)
        normalize(&sbet1, &cbet1)
        var sbet2 = f1 * sin(lat2 * Self.degree), cbet2 = abs(lat2) == 90 ? Self.tiny : cos(lat2 * Self.degree)
        normalize(&sbet2, &cbet2)
        // Where |β₁| and |β₂| differ by rounding only, make them equal, so that the symmetric
        // case β₂ = ±β₁ is recognised.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2 < 0 ? sbet1 : -sbet1 }
        } else if abs(sbet2) == -sbet1 {
            cbet2 = cbet1
        }
        let dn1 = (1 + ep2 * sbet1 * sbet1).squareRoot(), dn2 = (1 + ep2 * sbet2 * sbet2).squareRoot()
        let lam12 = lon12 * Self.degree
        let slam12 = lon12 == 180 ? 0 : sin(lam12), clam12 = cos(lam12)

        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0, s12 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // Both points on one meridian: the geodesic may run along it.
            calp1 = clam12; salp1 = slam12
            calp2 = 1; salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1, ssig2 = sbet2, csig2 = calp2 * cbet2
            let sig12 = atan2(max(csig1 * ssig2 - ssig1 * csig2, 0), csig1 * csig2 + ssig1 * ssig2)
            let lengths = self.lengths(eps: n, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
            // A negative reduced length means a conjugate point is passed: not the shortest line.
            if sig12 < 1 || lengths.m12b >= 0 {
                s12 = lengths.s12b * b
            } else {
                meridian = false
            }
        }
        if !meridian && sbet1 == 0 && (f <= 0 || lam12 <= .pi - f * .pi) {
            // Along the equator.
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12 = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12: lam12)
            salp1 = start.salp1
            calp1 = start.calp1
            if start.sig12 >= 0 {
                // Short enough for the auxiliary sphere with a mean radius.
                salp2 = start.salp2
                calp2 = start.calp2
                s12 = start.sig12 * b * start.dnm
            } else {
                // Newton on λ₁₂(α₁) − λ₁₂ = 0, keeping a bracket [α₁a, α₁b] around the root
                // and bisecting when a step leaves it or the derivative is not positive.
                var sig12 = 0.0, ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0
                // The last λ₁₂'s s₁₂/b, when it computed it (NaN otherwise): the same function of
                // the same arguments as the length below.
                var lastS12b = Double.nan
                var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
                var tripNewton = false, tripBisection = false
                var iteration = 0
                while iteration < Self.maximumIterations {
                    defer { iteration += 1 }
                    let l = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1: salp1, calp1: calp1,
                                     derivative: iteration < Self.newtonIterations)
                    salp2 = l.salp2; calp2 = l.calp2; sig12 = l.sig12
                    ssig1 = l.ssig1; csig1 = l.csig1; ssig2 = l.ssig2; csig2 = l.csig2; eps = l.eps
                    lastS12b = l.s12b
                    let v = l.lam12 - lam12
                    // Written so that a NaN ends the loop.
                    if tripBisection || !(abs(v) >= (tripNewton ? 8 : 2) * Self.tol0) { break }
                    if v > 0 && (iteration > Self.newtonIterations || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (iteration > Self.newtonIterations || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    if iteration < Self.newtonIterations && l.dlam12 > 0 {
                        let dalp1 = -v / l.dlam12
                        let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                        let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                        if nsalp1 > 0 && abs(dalp1) < .pi {
                            calp1 = calp1 * cdalp1 - salp1 * sdalp1
                            salp1 = nsalp1
                            normalize(&salp1, &calp1)
                            // Near a vanishing slope convergence is not quadratic: stop at
                            // ε rather than √ε.
                            tripNewton = abs(v) <= 16 * Self.tol0
                            continue
                        }
                    }
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    normalize(&salp1, &calp1)
                    tripNewton = false
                    tripBisection = abs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                        || abs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
                }
                s12 = (lastS12b.isNaN ? lengths(eps: eps, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2).s12b : lastS12b) * b
            }
        }

        // Undo the canonical transformation.
        if swap < 0 {
            Swift.swap(&salp1, &salp2)
            Swift.swap(&calp1, &calp2)
        }
        salp1 *= swap * lonSign; calp1 *= swap * latSign
        salp2 *= swap * lonSign; calp2 *= swap * latSign
        return (salp1, calp1, salp2, calp2, s12)
    }

    // MARK: Pieces of the inverse problem

    /// A first guess of α₁ (§ 5): the spherical solution, or near antipodal points the solution
    /// of the astroid problem (eq. 55). For very short lines the answer itself: then `sig12 ≥ 0`
    /// and `salp2`, `calp2`, `dnm` are set.
    private func inverseStart(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                              _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                              lam12: Double) -> (sig12: Double, salp1: Double, calp1: Double, salp2: Double, calp2: Double, dnm: Double) {
        var sig12 = -1.0, salp2 = 0.0, calp2 = 0.0, dnm = 0.0
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1, cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortLine = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var omg12 = lam12
        if shortLine {
            var sbetm2 = (sbet1 + sbet2) * (sbet1 + sbet2)
            sbetm2 /= sbetm2 + (cbet1 + cbet2) * (cbet1 + cbet2)
            dnm = (1 + ep2 * sbetm2).squareRoot()
            omg12 /= f1 * dnm
        }
        var somg12 = sin(omg12), comg12 = cos(omg12)
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * somg12 * somg12 / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
        let ssig12 = hypot(salp1, calp1), csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortLine && ssig12 < etol2 {
            salp2 = cbet1 * somg12
            calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? somg12 * somg12 / (1 + comg12) : 1 - comg12)
            normalize(&salp2, &calp2)
            sig12 = atan2(ssig12, csig12)
        } else if abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * abs(n) * .pi * cbet1 * cbet1 {
            // The spherical guess is good enough.
        } else {
            // Near antipodal: scale λ₁₂ and β₂ so that the antipode is at the origin and the
            // singular point at (−1, 0).
            let x: Double, y: Double, lamScale: Double
            if f >= 0 {
                let k2 = sbet1 * sbet1 * ep2
                let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
                lamScale = f * cbet1 * a3(eps) * .pi
                let betScale = lamScale * cbet1
                x = (lam12 - .pi) / lamScale
                y = sbet12a / betScale
            } else {
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = atan2(sbet12a, cbet12a)
                let l = lengths(eps: n, sig12: .pi + bet12a, sbet1, -cbet1, dn1, sbet2, cbet2, dn2)
                x = -1 + l.m12b / (cbet1 * cbet2 * l.m0 * .pi)
                let betScale = x < -0.01 ? sbet12a / x : -f * cbet1 * cbet1 * .pi
                lamScale = betScale / cbet1
                y = (lam12 - .pi) / lamScale
            }
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // Within the strip near the cut.
                if f >= 0 {
                    salp1 = min(1, -x)
                    calp1 = -(1 - salp1 * salp1).squareRoot()
                } else {
                    calp1 = max(x > -Self.tol1 ? 0 : -1, x)
                    salp1 = (1 - calp1 * calp1).squareRoot()
                }
            } else {
                // Estimate ω₁₂ from the astroid, then α₁ by the spherical formula with it.
                let k = Self.astroid(x, y)
                let omg12a = lamScale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * somg12 * somg12 / (1 - comg12)
            }
        }
        if salp1 > 0 {
            normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        return (sig12, salp1, calp1, salp2, calp2, dnm)
    }

    private struct Lambda {
        var lam12, salp2, calp2, sig12, ssig1, csig1, ssig2, csig2, eps, dlam12: Double
        /// ``lengths(eps:sig12:_:_:_:_:_:_:)``'s s₁₂/b for these arguments when the derivative
        /// needed them, else NaN: the inverse problem's length, which it took again.
        var s12b = Double.nan
    }

    /// The longitude difference λ₁₂ reached by the geodesic leaving point 1 at α₁ when it
    /// reaches the latitude of point 2 (eqs. 8, 11, 16), and its derivative dλ₁₂/dα₁ (eq. 46).
    private func lambda12(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                          _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                          salp1: Double, calp1 calp1In: Double, derivative: Bool) -> Lambda {
        // Break the degeneracy of the equatorial line (handled before).
        let calp1 = sbet1 == 0 && calp1In == 0 ? -Self.tiny : calp1In
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        normalize(&ssig1, &csig1)
        // Keep the symmetric case |β₂| = −β₁ exact: it can be singular for Newton's method.
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 = cbet2 != cbet1 || abs(sbet2) != -sbet1
            ? (calp1 * cbet1 * calp1 * cbet1 + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2) : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : abs(calp1)
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        normalize(&ssig2, &csig2)
        let sig12 = atan2(max(csig1 * ssig2 - ssig1 * csig2, 0), csig1 * csig2 + ssig1 * ssig2)
        let omg12 = atan2(max(comg1 * somg2 - somg1 * comg2, 0), comg1 * comg2 + somg1 * somg2)
        let k2 = calp0 * calp0 * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = c3Coefficients(eps)
        let b312 = Self.sinCosSeries(sine: true, ssig2, csig2, c3, count: Self.order - 1)
            - Self.sinCosSeries(sine: true, ssig1, csig1, c3, count: Self.order - 1)
        let lam12 = omg12 + salp0 * (-f * a3(eps)) * (sig12 + b312)
        var dlam12 = 0.0, s12b = Double.nan
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let l = lengths(eps: eps, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2)
                dlam12 = l.m12b * f1 / (calp2 * cbet2)
                s12b = l.s12b
            }
        }
        return Lambda(lam12: lam12, salp2: salp2, calp2: calp2, sig12: sig12, ssig1: ssig1, csig1: csig1,
                      ssig2: ssig2, csig2: csig2, eps: eps, dlam12: dlam12, s12b: s12b)
    }

    /// Distance s₁₂/b and reduced length m₁₂/b along an arc σ₁₂ of the auxiliary sphere
    /// (eqs. 7 and 38–40), and m0 = A₁ − A₂, the secular coefficient of the reduced length.
    private func lengths(eps: Double, sig12: Double, _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                         _ ssig2: Double, _ csig2: Double, _ dn2: Double) -> (s12b: Double, m12b: Double, m0: Double) {
        let c1 = Self.c1(eps), c2 = Self.c2(eps)
        let a1m1 = Self.a1m1(eps), a2m1 = Self.a2m1(eps)
        let ab1 = (1 + a1m1) * (Self.sinCosSeries(sine: true, ssig2, csig2, c1, count: Self.order)
            - Self.sinCosSeries(sine: true, ssig1, csig1, c1, count: Self.order))
        let ab2 = (1 + a2m1) * (Self.sinCosSeries(sine: true, ssig2, csig2, c2, count: Self.order)
            - Self.sinCosSeries(sine: true, ssig1, csig1, c2, count: Self.order))
        let m0 = a1m1 - a2m1
        let j12 = m0 * sig12 + (ab1 - ab2)
        // The products in parentheses cancel accurately for coincident points.
        let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
        return ((1 + a1m1) * sig12 + ab1, m12b, m0)
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (the paper's eq. 55),
    /// found in closed form.
    private static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = x * x, q = y * y, r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        // s and t multiplied by r³ and r, so that r = 0 needs no division.
        let s = p * q / 4, r2 = r * r, r3 = r * r2
        // Zero on the astroid p^(1/3) + q^(1/3) = 1.
        let discriminant = s * (s + 2 * r3)
        var u = r
        if discriminant >= 0 {
            var t3 = s + r3
            // The sign of the root that maximises |T³|, to avoid cancellation.
            t3 += t3 < 0 ? -discriminant.squareRoot() : discriminant.squareRoot()
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            // T is complex but u real: the cube root that avoids cancellation.
            let angle = atan2((-discriminant).squareRoot(), -(s + r3))
            u += 2 * r * cos(angle / 3)
        }
        let v = (u * u + q).squareRoot()
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / ((uv + w * w).squareRoot() + w)
    }

    // MARK: Series (sixth order; the paper's eqs. 17, 18, 20, 21, 24, 25, and A₃, C₃ of § 3)

    /// Σ c[l] sin(2lσ) for l = 1…count (sine) or Σ c[l] cos((2l+1)σ) for l = 0…count−1, by
    /// Clenshaw summation.
    ///
    /// The sine series of five and six terms, which the inverse problem sums 14 times, are
    /// written out: the loop read the `SIMD8` at a variable index. The same operations in the
    /// same order, from y0 = y1 = 0, so the same bits.
    private static func sinCosSeries(sine: Bool, _ sinx: Double, _ cosx: Double, _ c: SIMD8<Double>, count: Int) -> Double {
        let ar = 2 * (cosx - sinx) * (cosx + sinx)
        if sine, count == 6 {
            var y0 = 0.0, y1 = 0.0
            y1 = ar * y0 - y1 + c[6]
            y0 = ar * y1 - y0 + c[5]
            y1 = ar * y0 - y1 + c[4]
            y0 = ar * y1 - y0 + c[3]
            y1 = ar * y0 - y1 + c[2]
            y0 = ar * y1 - y0 + c[1]
            return 2 * sinx * cosx * y0
        }
        if sine, count == 5 {
            var y0 = c[5], y1 = 0.0
            y1 = ar * y0 - y1 + c[4]
            y0 = ar * y1 - y0 + c[3]
            y1 = ar * y0 - y1 + c[2]
            y0 = ar * y1 - y0 + c[1]
            return 2 * sinx * cosx * y0
        }
        var k = count + (sine ? 1 : 0)
        var y0 = 0.0, y1 = 0.0
        if count & 1 != 0 {
            k -= 1
            y0 = c[k]
        }
        for _ in 0..<(count / 2) {
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return sine ? 2 * sinx * cosx * y0 : cosx * (y0 - y1)
    }

    /// A₁ − 1, the mean of dI₁/dσ − 1 (eq. 17).
    private static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ, l = 1…6 (eq. 18).
    private static func c1(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(), d = eps
        c[1] = d * ((6 - e2) * e2 - 16) / 32; d *= eps
        c[2] = d * ((64 - 9 * e2) * e2 - 128) / 2048; d *= eps
        c[3] = d * (9 * e2 - 16) / 768; d *= eps
        c[4] = d * (3 * e2 - 5) / 512; d *= eps
        c[5] = -7 * d / 1280; d *= eps
        c[6] = -7 * d / 2048
        return c
    }

    /// C′₁ₗ, l = 1…6, of the reverted series σ(τ) (eq. 21).
    private static func c1p(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(), d = eps
        c[1] = d * (e2 * (205 * e2 - 432) + 768) / 1536; d *= eps
        c[2] = d * (e2 * (4005 * e2 - 4736) + 3840) / 12288; d *= eps
        c[3] = d * (116 - 225 * e2) / 384; d *= eps
        c[4] = d * (2695 - 7173 * e2) / 7680; d *= eps
        c[5] = 3467 * d / 7680; d *= eps
        c[6] = 38081 * d / 61440
        return c
    }

    /// A₂ − 1, the mean of dI₂/dσ − 1 (eq. 42).
    private static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (25 * e2 + 36) + 64) / 256
        return t * (1 - eps) - eps
    }

    /// C₂ₗ, l = 1…6 (eq. 43).
    private static func c2(_ eps: Double) -> SIMD8<Double> {
        let e2 = eps * eps
        var c = SIMD8<Double>(), d = eps
        c[1] = d * (e2 * (e2 + 2) + 16) / 32; d *= eps
        c[2] = d * (e2 * (35 * e2 + 64) + 384) / 2048; d *= eps
        c[3] = d * (15 * e2 + 80) / 768; d *= eps
        c[4] = d * (7 * e2 + 35) / 512; d *= eps
        c[5] = 63 * d / 1280; d *= eps
        c[6] = 77 * d / 2048
        return c
    }

    /// A₃ (eq. 24), a polynomial in ε whose coefficients depend on n.
    private func a3(_ eps: Double) -> Double {
        // Horner's loop written out (as ``c3Coefficients(_:)``): the same operations in order.
        let x = a3x
        var v = eps * 0 + x[5]
        v = eps * v + x[4]
        v = eps * v + x[3]
        v = eps * v + x[2]
        v = eps * v + x[1]
        return eps * v + x[0]
    }

    /// C₃ₗ, l = 1…5 (eq. 25): each a polynomial in ε times εˡ.
    ///
    /// Written out for the sixth order: the loops over a `SIMD16` read at a variable index
    /// cost 550 instructions a call, and a sightline's located reading makes two (its
    /// distance). The same operations in the same order, from `t = 0` (`eps · 0 + c` is kept
    /// as such, so that a NaN ε still gives NaN), so the same bits.
    private func c3Coefficients(_ eps: Double) -> SIMD8<Double> {
        let x = c3x
        let t5 = eps * 0 + x[14]
        var t4 = eps * 0 + x[13]
        t4 = eps * t4 + x[12]
        var t3 = eps * 0 + x[11]
        t3 = eps * t3 + x[10]
        t3 = eps * t3 + x[9]
        var t2 = eps * 0 + x[8]
        t2 = eps * t2 + x[7]
        t2 = eps * t2 + x[6]
        t2 = eps * t2 + x[5]
        var t1 = eps * 0 + x[4]
        t1 = eps * t1 + x[3]
        t1 = eps * t1 + x[2]
        t1 = eps * t1 + x[1]
        t1 = eps * t1 + x[0]
        let p1 = 1.0 * eps, p2 = p1 * eps, p3 = p2 * eps, p4 = p3 * eps, p5 = p4 * eps
        return SIMD8<Double>(0, t1 * p1, t2 * p2, t3 * p3, t4 * p4, t5 * p5, 0, 0)
    }

    // MARK: Angles

    private func normalize(_ s: inout Double, _ c: inout Double) {
        let r = hypot(s, c)
        s /= r
        c /= r
    }

    /// An angle in degrees reduced to (−180, 180].
    private func angleNormalize(_ x: Double) -> Double {
        let y = remainder(x, 360)
        return y == -180 ? 180 : y
    }

    /// y − x in degrees, reduced to (−180, 180], accurately even when the two nearly cancel
    /// (an error-free sum keeps the rounding error t).
    private func angleDifference(_ x: Double, _ y: Double) -> Double {
        let s = -x + y
        let up = s - y, vpp = s - up
        let t = -((up - -x) + (vpp - y))
        var d = s
        if (d - 180) + t > 0 {
            d -= 360
        } else if (d + 180) + t <= 0 {
            d += 360
        }
        return d + t
    }

    /// Rounds an angle below 1/16° to the spacing of doubles near 1/16° (about 7e−18°), so that
    /// a latitude or longitude difference that is zero but for rounding becomes exactly zero
    /// and the special cases (equator, meridian) are recognised.
    private func angleRound(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        y = y < z ? z - (z - y) : y
        return x < 0 ? -y : y
    }

    /// Degrees clockwise from north in (−180, 180] from sin and cos of the azimuth; +0 not −0.
    private static func azimuthDegrees(_ s: Double, _ c: Double) -> Double {
        0 - atan2(-s, c) / degree
    }
}
