import Foundation
import PropertyBased
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The sightline march against closed-form answers on synthetic terrain held in memory: a level
/// plateau, a cone, a thin wall, a plateau's edge, voids. Every expected distance comes from
/// `SyntheticTerrain.Truth`, written from the ellipsoid's geometry, never from the engine.
@Suite(.timeLimit(.minutes(10)))  // a march that never ends fails instead of hanging CI (generous: 600 tests share 2 cores)
struct SightlineMarchTests {
    typealias Truth = SyntheticTerrain.Truth

    /// A geoid whose undulation is `n` metres everywhere, so that terrain of constant height
    /// above mean sea level has constant height above the ellipsoid too.
    static func constantGeoid(_ n: Float) -> Geoid {
        Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360,
                                  rows: 2, columns: 2, heights: [n, n, n, n]))
    }

    /// A grid of `rows × columns` posts from `north`/`west` at `spacing` degrees, each height
    /// given by `height(latitude, longitude)` (NaN for a void).
    static func grid(north: Double, west: Double, spacing: Double, rows: Int, columns: Int,
                     height: (Double, Double) -> Double) -> ElevationGrid {
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                heights[r * columns + c] = Float(height(north - Double(r) * spacing, west + Double(c) * spacing))
            }
        }
        return ElevationGrid(north: north, west: west, latitudeSpacing: spacing, longitudeSpacing: spacing,
                             rows: rows, columns: columns, heights: heights)
    }

    /// Marches a ray from an eye `eyeMSL` metres above mean sea level over `grid`.
    static func march(latitude: Double, longitude: Double, eyeMSL: Double, azimuth: Double, elevation: Double,
                      undulation: Float = 0, refraction: Double = MarchSettings.defaultRefraction,
                      step: Double = MarchSettings.defaultStep, over grid: ElevationGrid) -> SightlineMarch.Result {
        let eye = GeodeticPosition(latitude: latitude, longitude: longitude, height: eyeMSL + Double(undulation))
        var march = SightlineMarch(observer: eye, direction: ViewDirection(azimuth: azimuth, elevation: elevation).enu,
                                   geoid: constantGeoid(undulation),
                                   settings: MarchSettings(refraction: refraction, step: step))
        var terrain = grid
        return march.run(over: &terrain, maximumTerrain: Double(grid.maximumHeight))
    }

    /// A level plateau `height` m above mean sea level, ±`halfWidth`° around a point.
    static func plateau(around latitude: Double, _ longitude: Double, height: Double, halfWidth: Double = 0.6) -> ElevationGrid {
        let spacing = 0.01
        let n = Int((2 * halfWidth / spacing).rounded()) + 1
        return grid(north: latitude + halfWidth, west: longitude - halfWidth, spacing: spacing, rows: n, columns: n) { _, _ in height }
    }

    // MARK: - Level plateau: the raised ellipsoid

    struct PlateauCase: Sendable, CustomTestStringConvertible {
        var latitude, longitude, azimuth, depression, eyeAbove, plateau: Double
        var undulation: Float
        var refraction: Double
        var testDescription: String { "\(latitude)°, az \(azimuth)°, −\(depression)°, k \(refraction)" }
    }

    @Test(arguments: [
        // On the equator looking east the section is a circle: the plainest geometry.
        PlateauCase(latitude: 0, longitude: 10, azimuth: 90, depression: 2, eyeAbove: 300, plateau: 1500, undulation: 0, refraction: 0.13),
        PlateauCase(latitude: 46.6, longitude: 8, azimuth: 0, depression: 1, eyeAbove: 300, plateau: 1500, undulation: 47.3, refraction: 0.13),
        // Grazing: 0.5° down from 150 m, the hit lies ~20 km out where the Earth has fallen 30 m.
        PlateauCase(latitude: 46.6, longitude: 8, azimuth: 208, depression: 0.5, eyeAbove: 150, plateau: 600, undulation: 47.3, refraction: 1.0 / 7),
        PlateauCase(latitude: -37.9, longitude: 178, azimuth: 300, depression: 3, eyeAbove: 1000, plateau: 200, undulation: 20, refraction: 0),
        PlateauCase(latitude: 27.9, longitude: 86.9, azimuth: 45, depression: 10, eyeAbove: 2000, plateau: 5000, undulation: -40, refraction: -0.2),
        // 0.4° down from 120 m, just below the 0.33° dip of the horizon: the hit is 22 km out.
        PlateauCase(latitude: 60, longitude: -150, azimuth: 135, depression: 0.4, eyeAbove: 120, plateau: 0, undulation: 10, refraction: 0.13),
        PlateauCase(latitude: 31.5, longitude: 35.5, azimuth: 270, depression: 45, eyeAbove: 800, plateau: -420, undulation: 20, refraction: 0.13),
    ])
    func plateauHitMatchesTheRaisedEllipsoid(c: PlateauCase) throws {
        let grid = Self.plateau(around: c.latitude, c.longitude, height: c.plateau)
        let result = Self.march(latitude: c.latitude, longitude: c.longitude, eyeMSL: c.plateau + c.eyeAbove,
                                azimuth: c.azimuth, elevation: -c.depression, undulation: c.undulation,
                                refraction: c.refraction, over: grid)
        let n = Double(c.undulation)
        let expected = try #require(Truth.plateauSlantDistance(latitude: c.latitude, longitude: c.longitude,
                                                               eyeHeight: c.plateau + c.eyeAbove + n, azimuth: c.azimuth,
                                                               elevation: -c.depression, plateau: c.plateau + n,
                                                               refraction: c.refraction))
        #expect(result.outcome == .hit)
        #expect(abs(result.marchedDistance - expected) < 0.5, "marched \(result.marchedDistance) m, closed form \(expected) m")
        #expect(abs(result.slantRange - expected) < 0.5)
        #expect(abs(result.elevation - c.plateau) < 1e-3)
    }

    /// On a flat Earth the 0.5°-grazing ray would hit at 150/tan 0.5° = 17.2 km; the ground
    /// falling away (less the refraction) pushes the hit out to 20.5 km. A flat-Earth march would
    /// be off by kilometres.
    @Test func curvaturePushesAGrazingHitOutByKilometres() throws {
        let grid = Self.plateau(around: 46.6, 8, height: 600)
        let result = Self.march(latitude: 46.6, longitude: 8, eyeMSL: 750, azimuth: 208, elevation: -0.5, over: grid)
        let flat = 150 / tan(0.5 * Double.pi / 180)
        #expect(result.outcome == .hit)
        #expect(result.marchedDistance - flat > 3000)
    }

    /// 0.3° down from 120 m stays above the horizon (its dip is √(2·120·(1 − k)/R) = 0.33°):
    /// the closed form has no hit, and neither has the march.
    @Test func rayAboveTheDipOfTheHorizonMissesAnEndlessPlateau() {
        let grid = Self.plateau(around: 60, -150, height: 0)
        #expect(Truth.plateauSlantDistance(latitude: 60, longitude: -150, eyeHeight: 130, azimuth: 135, elevation: -0.3,
                                           plateau: 10, refraction: 0.13) == nil)
        let result = Self.march(latitude: 60, longitude: -150, eyeMSL: 120, azimuth: 135, elevation: -0.3, undulation: 10, over: grid)
        #expect(result.outcome == .horizon)
    }

    @Test func plateauHitsAnywhereMatchTheClosedForm() async {
        await propertyCheck(count: 60, input: Gen.double(in: -60...60), Gen.double(in: -180...180), Gen.double(in: 0..<360),
                            Gen.double(in: 2...30), Gen.double(in: 2...1500), Gen.double(in: -400...6000),
                            Gen.double(in: -100...80), Gen.double(in: -0.5...0.9)) { lat, lon, azimuth, depression, eyeAbove, plateau, n, k in
            let grid = Self.plateau(around: lat, lon, height: plateau)
            let undulation = Float(n)
            let result = Self.march(latitude: lat, longitude: lon, eyeMSL: plateau + eyeAbove, azimuth: azimuth,
                                    elevation: -depression, undulation: undulation, refraction: k, over: grid)
            let nd = Double(undulation)
            guard let expected = Truth.plateauSlantDistance(latitude: lat, longitude: lon, eyeHeight: plateau + eyeAbove + nd,
                                                            azimuth: azimuth, elevation: -depression, plateau: plateau + nd,
                                                            refraction: k) else {
                Issue.record("closed form found no hit")
                return
            }
            #expect(result.outcome == .hit)
            #expect(abs(result.marchedDistance - expected) < 0.5, "marched \(result.marchedDistance), expected \(expected)")
        }
    }

    // MARK: - Cone

    struct ConeCase: Sendable, CustomTestStringConvertible {
        var azimuth, eyeMSL, elevation, refraction: Double
        var testDescription: String { "az \(azimuth)°, eye \(eyeMSL) m, \(elevation)°, k \(refraction)" }
    }

    /// A cone 3 000 m ahead: apex 3 000 m, flank slope 1 (45°) down to a 1 000 m plain. Rays
    /// up from the plain and down from above meet the near flank where a quadratic says.
    @Test(arguments: [
        ConeCase(azimuth: 0, eyeMSL: 1001.6, elevation: 26.5, refraction: 0.13),
        ConeCase(azimuth: 0, eyeMSL: 3500, elevation: -30, refraction: 0.13),
        ConeCase(azimuth: 180, eyeMSL: 1500, elevation: 10, refraction: 0),
        ConeCase(azimuth: 180, eyeMSL: 2800, elevation: -2, refraction: 1.0 / 7),
    ])
    func coneFlankHitMatchesTheQuadratic(c: ConeCase) throws {
        let latitude = 46.0, longitude = 7.5
        let apexDistance = 3000.0, apexMSL = 3000.0, slope = 1.0, plain = 1000.0
        let undulation: Float = 51.25
        let sign = c.azimuth == 0 ? 1.0 : -1.0
        // Along a meridian the ground distance is the meridian arc, M at the midpoint to 1 mm.
        let apexLatitude = latitude + sign * apexDistance / Truth.meridianRadius(latitude + sign * 0.0135) * 180 / .pi
        let m = Truth.meridianRadius(apexLatitude) * .pi / 180
        let east = Truth.primeVerticalRadius(apexLatitude) * cos(apexLatitude * .pi / 180) * .pi / 180
        let spacing = 0.0001   // 11 m × 7.7 m: the bilinear surface departs from the cone by < 1 cm
        let south = min(latitude, apexLatitude) - 0.005, north = max(latitude, apexLatitude) + 0.025
        let rows = Int(((north - south) / spacing).rounded()) + 1
        let grid = Self.grid(north: north, west: longitude - 0.03, spacing: spacing, rows: rows, columns: 601) { lat, lon in
            let rho = (pow((lat - apexLatitude) * m, 2) + pow((lon - longitude) * east, 2)).squareRoot()
            return max(plain, apexMSL - slope * rho)
        }
        let result = Self.march(latitude: latitude, longitude: longitude, eyeMSL: c.eyeMSL, azimuth: c.azimuth,
                                elevation: c.elevation, undulation: undulation, refraction: c.refraction, over: grid)
        let n = Double(undulation)
        let expected = try #require(Truth.coneSlantDistance(latitude: latitude, eyeHeight: c.eyeMSL + n, azimuth: c.azimuth,
                                                            elevation: c.elevation, apexDistance: apexDistance,
                                                            apexHeight: apexMSL + n, slope: slope, refraction: c.refraction))
        #expect(result.outcome == .hit)
        #expect(abs(result.marchedDistance - expected) < 0.5, "marched \(result.marchedDistance) m, closed form \(expected) m")
        // On the flank, not the plain: above the plain and below the apex.
        #expect(result.elevation > plain + 1 && result.elevation < apexMSL)
    }

    // MARK: - Thin wall

    /// A wall one post wide: 100 m high, its bilinear tent 4.4 m thick at the foot and 2 cm
    /// thick where the ray crosses it, 0.5 m under the crest. 10 m samples land on either side.
    struct Wall {
        static let latitude = 46.0, longitude = 7.5
        static let spacing = 0.00002          // 2.2 m
        static let base = 500.0, crest = 600.0
        static let rows = 600
        /// The wall's row of posts, about 1 km north of the observer.
        static let wallRow = 100
        static let north = latitude + Double(rows - 150) * spacing
        static var wallLatitude: Double { north - Double(wallRow) * spacing }

        static let grid = SightlineMarchTests.grid(north: north, west: longitude - 0.001, spacing: spacing,
                                                   rows: rows, columns: 101) { lat, _ in
            abs(lat - wallLatitude) < spacing / 2 ? crest : base
        }

        /// The elevation angle from an eye on the plain to `height` on the wall's crest line,
        /// with the refraction lift k·d/(2R) and the curvature drop d/(2R).
        static func elevation(toHeight height: Double, eyeMSL: Double, k: Double = MarchSettings.defaultRefraction) -> Double {
            let d = (wallLatitude - latitude) * Truth.meridianRadius(latitude) * .pi / 180
            let r = Truth.meanRadius(latitude)
            return (atan((height - eyeMSL) / d) - d * (1 - k) / (2 * r)) * 180 / .pi
        }
    }

    @Test func thinWallIsHitOnItsFace() {
        let eye = Wall.base + 1.6
        let result = Self.march(latitude: Wall.latitude, longitude: Wall.longitude, eyeMSL: eye, azimuth: 0,
                                elevation: Wall.elevation(toHeight: Wall.crest - 0.5, eyeMSL: eye), over: Wall.grid)
        #expect(result.outcome == .hit)
        // On the near face: between the post row in front of the wall and the wall's crest line.
        #expect(result.latitude <= Wall.wallLatitude + 1e-9 && result.latitude > Wall.wallLatitude - Wall.spacing)
        #expect(abs(result.elevation - (Wall.crest - 0.5)) < 0.3)
    }

    /// A ray 0.5 m above the crest passes the wall.
    @Test func rayJustOverTheWallPassesIt() {
        let eye = Wall.base + 1.6
        let over = Wall.elevation(toHeight: Wall.crest + 0.5, eyeMSL: eye)
        let clear = Self.march(latitude: Wall.latitude, longitude: Wall.longitude, eyeMSL: eye, azimuth: 0,
                               elevation: over, over: Wall.grid)
        #expect(clear.outcome == .horizon)
    }

    // MARK: - Horizon

    /// Standing on a plateau 2 km from its edge and looking level, the ray clears the plateau
    /// (the ground falls away by d²/2R′) and the valley below: the skyline is the edge.
    @Test func plateauEdgeIsTheHorizon() {
        let latitude = 46.0, longitude = 7.5, spacing = 0.0005
        let edge = latitude + 2000 / Truth.meridianRadius(latitude) * 180 / .pi
        let grid = Self.grid(north: latitude + 0.2, west: longitude - 0.01, spacing: spacing, rows: 421, columns: 41) { lat, _ in
            lat <= edge ? 1500 : 200
        }
        let result = Self.march(latitude: latitude, longitude: longitude, eyeMSL: 1501.6, azimuth: 0, elevation: 0, over: grid)
        #expect(result.outcome == .horizon)
        // The last post row of the plateau: within one grid row (55 m) of the edge line.
        let lastRow = (edge / spacing).rounded(.down) * spacing
        #expect(abs(result.latitude - lastRow) < 0.0002, "skyline at \(result.latitude)°, edge row \(lastRow)°")
        #expect(result.elevation == 1500)
    }

    /// A ray pointing up leaves the terrain behind within a few kilometres; the skyline along its
    /// azimuth is still the distant ridge, not a point under the ray.
    @Test func skylineOfASteepRayIsFoundAlongTheWholeAzimuth() {
        let latitude = 46.0, longitude = 7.5
        let ridge = latitude + 0.15          // 16.7 km north
        let grid = Self.grid(north: latitude + 0.2, west: longitude - 0.01, spacing: 0.001, rows: 221, columns: 21) { lat, _ in
            abs(lat - ridge) < 0.0005 ? 2500 : 1000
        }
        let result = Self.march(latitude: latitude, longitude: longitude, eyeMSL: 1001.6, azimuth: 0, elevation: 40, over: grid)
        #expect(result.outcome == .horizon)
        // The skyline is sampled every step (10 m): within 5 m of the crest, whose flanks fall
        // 1 500 m in 111 m, so within 70 m of its height.
        #expect(abs(result.latitude - ridge) < 0.0001 && result.elevation > 2430)
    }

    /// A level ray from 1.6 m over an endless plateau never comes down to it.
    @Test func levelRayOverAPlateauNeverHits() {
        let result = Self.march(latitude: 46, longitude: 7.5, eyeMSL: 1501.6, azimuth: 90, elevation: 0,
                                over: Self.plateau(around: 46, 7.5, height: 1500, halfWidth: 0.2))
        #expect(result.outcome == .horizon)
    }

    // MARK: - Voids and missing data

    /// A void band under a descending ray: the ray sinks below the (unknown) ground inside the
    /// void, so it met the terrain somewhere in the void: the answer is "terrain unknown" over
    /// the void's stretch, never a hit at sea level and never one on the void's far rim, which
    /// lies above the ray (before issue 38 the far rim was the hit, off the sightline).
    @Test func rayThatSinksInsideAVoidIsTerrainUnknownNeverAHitOnTheFarRim() {
        let latitude = 46.0, longitude = 7.5, spacing = 0.001
        let voidStart = latitude + 0.02, voidEnd = latitude + 0.06
        let grid = Self.grid(north: latitude + 0.1, west: longitude - 0.01, spacing: spacing, rows: 111, columns: 21) { lat, _ in
            lat > voidStart && lat < voidEnd ? .nan : 1000
        }
        let result = Self.march(latitude: latitude, longitude: longitude, eyeMSL: 1200, azimuth: 0, elevation: -3, over: grid)
        #expect(result.outcome == .terrainUnknown)
        #expect(result.crossedVoid)
        #expect(result.elevation.isNaN)
        // The cells with a void post: from the last known post, 0.020° north, to the first
        // known one again, 0.060° north (about 111.1 km a degree there).
        let stretch = result.unknownStretch ?? 0...0
        let metresPerDegree = 111_150.0
        #expect(abs(stretch.lowerBound - 0.020 * metresPerDegree) < 20 && abs(stretch.upperBound - 0.060 * metresPerDegree) < 20, "\(stretch)")
        // Known terrain where the ray is still above it: a hit on the terrain, on the ray.
        let short = Self.march(latitude: latitude, longitude: longitude, eyeMSL: 1050, azimuth: 0, elevation: -3, over: grid)
        #expect(short.outcome == .hit && short.elevation == 1000 && short.latitude < voidStart)
    }

    @Test func allVoidGridHasNoTerrain() {
        let grid = Self.grid(north: 46.1, west: 7.4, spacing: 0.01, rows: 21, columns: 21) { _, _ in .nan }
        var march = SightlineMarch(observer: GeodeticPosition(latitude: 46, longitude: 7.5, height: 1000),
                                   direction: ViewDirection(azimuth: 0, elevation: -1).enu,
                                   geoid: Self.constantGeoid(0), settings: MarchSettings())
        var terrain = grid
        // An all-void grid has no maximum (NaN): the march must still go on.
        let result = march.run(over: &terrain, maximumTerrain: Double(grid.maximumHeight))
        #expect(result.outcome == .noTerrain)
        #expect(result.crossedVoid)
        #expect(result.latitude.isNaN)
    }

    // MARK: - Step independence: no crest skipped

    /// On rough random terrain the first hit does not depend on the step: a 50 m march finds
    /// the same crossing as a 0.5 m one (a skipped crest would put the coarse hit farther out).
    @Test func firstHitDoesNotDependOnTheStep() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...Int(Int32.max)), Gen.double(in: 0..<360),
                            Gen.double(in: -8 ... -0.5), Gen.double(in: 5...200)) { seed, azimuth, elevation, eyeAbove in
            var random = SplitMix64(seed: UInt64(seed))
            // 200 m posts with up to ±150 m of relief: slopes up to ~1.5, crests between samples.
            let grid = Self.grid(north: 46.1, west: 7.4, spacing: 0.002, rows: 101, columns: 101) { _, _ in
                1000 + 150 * (Double(random.next() % 2001) / 1000 - 1)
            }
            let eye = 1150 + eyeAbove
            let coarse = Self.march(latitude: 46, longitude: 7.5, eyeMSL: eye, azimuth: azimuth, elevation: elevation,
                                    step: 50, over: grid)
            let fine = Self.march(latitude: 46, longitude: 7.5, eyeMSL: eye, azimuth: azimuth, elevation: elevation,
                                  step: 0.5, over: grid)
            #expect(coarse.outcome == fine.outcome)
            if coarse.outcome == .hit {
                #expect(abs(coarse.marchedDistance - fine.marchedDistance) < 0.02,
                        "coarse \(coarse.marchedDistance) m, fine \(fine.marchedDistance) m")
            }
        }
    }
}
