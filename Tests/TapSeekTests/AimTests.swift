import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// `Locator.aim` on the real tiles: round trips with `locate`, and targets hidden behind real
/// ridges checked against an independent brute-force profile.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct AimTests {
    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid())
    }

    static let camera = Reading.CameraSettings(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024)

    /// Readings that hit the terrain, with taps off the image centre and rolled cameras.
    static let readings = [
        Reading(location: .init(latitude: 47.3306, longitude: 9.4086, altitude: 790),
                orientation: .init(heading: 222, pitch: 7, roll: 1), camera: camera, tap: .init(x: 2150, y: 1500)),
        Reading(location: .init(latitude: 27.9957, longitude: 86.8285),
                orientation: .init(heading: 80, pitch: 8, roll: -2), camera: camera, tap: .init(x: 2400, y: 1300)),
        Reading(location: .init(latitude: 46.6240, longitude: 8.0410),
                orientation: .init(heading: 208, pitch: 24, roll: 3), camera: camera, tap: .init(x: 1700, y: 1900)),
        Reading(location: .init(latitude: 47.2840, longitude: 9.4300),
                orientation: .init(heading: 250, pitch: 12, roll: 0), camera: camera, tap: .init(x: 3000, y: 500)),
    ]

    /// Aimed at what a reading located, the target is visible and appears at the tapped pixel.
    @Test(arguments: readings)
    func aimingAtALocatedHitFindsItVisibleAtTheTappedPixel(reading: Reading) throws {
        let locator = try Self.locator()
        let located = locator.locate(reading)
        #expect(located.status == .hit)
        let t = try #require(located.target)
        var observer = reading
        observer.tap = nil
        let aim = locator.aim(AimRequest(observer: observer,
                                         target: .position(latitude: t.latitude, longitude: t.longitude, elevation: t.elevation, name: nil)))
        #expect(aim.error == nil, "\(aim.error?.message ?? "")")
        #expect(aim.visible == true, "blocked by \(String(describing: aim.blockedBy))")
        let pixel = try #require(aim.pixel)
        #expect(pixel.inFrame && !pixel.behindCamera)
        let x = try #require(pixel.x), y = try #require(pixel.y)
        #expect(abs(x - reading.tap!.x) < 0.5 && abs(y - reading.tap!.y) < 0.5, "pixel (\(x), \(y)) for tap \(reading.tap!)")
        #expect(abs(aim.slantRange - t.slantRange) < 1)
        #expect(abs(aim.distance - t.distance) < 1)
        let s = try #require(located.sightline)
        #expect(abs(remainder(aim.azimuth - s.azimuth, 360)) < 1e-4 && abs(aim.elevationAngle - s.elevationAngle) < 1e-4)
    }

    struct Pair: Sendable, CustomTestStringConvertible {
        var name: String
        var observer: (Double, Double)
        var target: (Double, Double)
        var testDescription: String { name }
    }

    /// Observers and targets on the Säntis tile, 1.6 m above the ground: from the valleys, across
    /// the Alpstein massif and into it (hidden by near ridges), and from its summits.
    static let pairs = [
        Pair(name: "Wasserauen → Schwägalp, across the Alpstein", observer: (47.2840, 9.4300), target: (47.2556, 9.3167)),
        Pair(name: "Appenzell → Säntis summit", observer: (47.3306, 9.4086), target: (47.2492, 9.3433)),
        Pair(name: "Schwägalp → Hoher Kasten, behind the Säntis", observer: (47.2556, 9.3167), target: (47.2840, 9.4860)),
        Pair(name: "Appenzell → Wasserauen, up the valley", observer: (47.3306, 9.4086), target: (47.2840, 9.4300)),
        Pair(name: "Säntis → Hoher Kasten, summit to summit", observer: (47.2492, 9.3433), target: (47.2840, 9.4860)),
        Pair(name: "Hoher Kasten → Säntis", observer: (47.2840, 9.4860), target: (47.2492, 9.3433)),
        Pair(name: "Säntis → Schwägalp, down the north face", observer: (47.2492, 9.3433), target: (47.2556, 9.3167)),
        Pair(name: "Säntis → Appenzell", observer: (47.2492, 9.3433), target: (47.3306, 9.4086)),
    ]

    /// Whether the target can be seen agrees with a brute-force profile along the aimed ray
    /// (every metre, bisected to 0.1 mm), and so does the blocking ridge.
    @Test(arguments: pairs)
    func visibilityAgreesWithABruteForceProfile(pair: Pair) throws {
        let locator = try Self.locator()
        let observer = Reading(location: .init(latitude: pair.observer.0, longitude: pair.observer.1))
        let aim = locator.aim(AimRequest(observer: observer, target: .position(latitude: pair.target.0, longitude: pair.target.1,
                                                                                elevation: nil, name: nil)))
        #expect(aim.error == nil)
        let o = try #require(aim.observer), t = try #require(aim.target)
        let catalog = locator.catalog
        let tile = try #require(catalog.tiles.firstIndex { $0.path.hasSuffix("N47E009.hgt") })
        let grid = try #require(catalog.grid(tile: tile))
        let geoid = locator.geoid
        let eye = GeodeticPosition(latitude: o.latitude, longitude: o.longitude, height: o.altitude + geoid.undulation(latitude: o.latitude, longitude: o.longitude))
        let direction = BruteForceSightline.aim(from: eye, latitude: t.latitude, longitude: t.longitude, msl: try #require(t.elevation), geoid: geoid,
                                                refraction: 0.13)
        let brute = BruteForceSightline(eye: eye, direction: direction, refraction: 0.13, geoid: geoid, slope: 3)
        let slant = aim.slantRange
        let tolerance = max(30, 0.005 * slant)
        let first = brute.firstHit(over: grid, limit: slant - tolerance)
        #expect(aim.visible == (first == nil), "\(pair.name): brute force first hit at \(String(describing: first)) m of \(slant) m")
        if let first, let blocked = aim.blockedBy {
            let frame = LocalFrame(origin: eye)
            let point = frame.geodetic(ofENU: first * direction)
            let apart = Geodesic.inverse(latitude1: point.latitude, longitude1: point.longitude,
                                         latitude2: blocked.latitude, longitude2: blocked.longitude).distance
            #expect(apart < 1, "\(pair.name): blocker \(apart) m from the brute force's")
        }
    }

    @Test func pixelsOutOfFrameAndBehindTheCamera() throws {
        let locator = try Self.locator()
        let saentis = AimRequest.Target.position(latitude: 47.2492, longitude: 9.3433, elevation: 2502, name: "Säntis")
        var looking = Reading(location: .init(latitude: 47.3306, longitude: 9.4086), orientation: .init(heading: 222, pitch: 5),
                              camera: Self.camera)
        #expect(locator.aim(AimRequest(observer: looking, target: saentis)).pixel?.inFrame == true)
        #expect(locator.aim(AimRequest(observer: looking, target: saentis)).target?.name == "Säntis")
        looking.orientation?.heading = 290      // 70° to the right of it: off the image, still in front
        let aside = try #require(locator.aim(AimRequest(observer: looking, target: saentis)).pixel)
        #expect(!aside.inFrame && !aside.behindCamera && aside.x != nil)
        looking.orientation?.heading = 42       // turned round
        let behind = try #require(locator.aim(AimRequest(observer: looking, target: saentis)).pixel)
        #expect(behind.behindCamera && !behind.inFrame && behind.x == nil)
        looking.camera = nil
        #expect(locator.aim(AimRequest(observer: looking, target: saentis)).pixel == nil)
    }

    @Test func requestsThatCannotBeAnsweredSayWhy() throws {
        let locator = try Self.locator()
        let observer = Reading(location: .init(latitude: 47.3306, longitude: 9.4086))
        let named = locator.aim(AimRequest(observer: observer, target: .named("Säntis")))
        #expect(named.error?.message == "target.name needs the place-search index (run scripts/setup.sh)")
        let unknown = locator.aim(AimRequest(observer: observer, target: .named("Nowhere")), resolve: { _, _, _ in .notFound(candidates: []) })
        #expect(unknown.error?.code == .notFound)
        let same = locator.aim(AimRequest(observer: observer, target: .position(latitude: 47.3306, longitude: 9.4086, elevation: nil, name: nil)))
        #expect(same.error?.message == "the target is the observer's own position")
        // Off the DEM is no longer unanswerable (issue 38): see AimOffTheDEMTests.
        let outside = locator.aim(AimRequest(observer: observer, target: .position(latitude: 10, longitude: 10, elevation: nil, name: nil)))
        #expect(outside.error == nil && outside.warnings.contains { $0.code == .targetOutsideDEM })
    }

    /// A name is looked up near the observer: the resolver is handed the observer's
    /// coordinates, and a name it cannot place there is `not-found` with the closest matches and
    /// their distances in the message.
    @Test func aNameIsLookedUpNearTheObserver() throws {
        let locator = try Self.locator()
        let observer = Reading(location: .init(latitude: 47.3306, longitude: 9.4086))
        let asked = Locked<[Double]>([])
        let result = locator.aim(AimRequest(observer: observer, target: .named("Säntis")), resolve: { _, latitude, longitude in
            asked.withLock { $0 = [latitude, longitude] }
            return .notFound(candidates: [.init(name: "Santos", isoCountryCode: "BR", distance: 9_660_400)])
        })
        #expect(asked.withLock { $0 } == [47.3306, 9.4086])
        #expect(result.error == LocateResult.Failure(code: .notFound, message: "target.name \"Säntis\" names no place within 500 km of the observer; closest matches: Santos (BR, 9660 km); give target.latitude and target.longitude"))
    }

    /// A name resolved to a place of another name (the place search forgives typing errors) is
    /// aimed at, as the interface says, and never silently: the result warns.
    @Test func nameResolvedToAnotherPlaceWarns() throws {
        let locator = try Self.locator()
        let observer = Reading(location: .init(latitude: 47.3306, longitude: 9.4086))
        let saentis = AimRequest.Target.position(latitude: 47.2494, longitude: 9.3433, elevation: nil, name: "Säntis")
        let exact = locator.aim(AimRequest(observer: observer, target: .named("santis")), resolve: { _, _, _ in .found(saentis) })
        #expect(exact.error == nil && exact.warnings.isEmpty, "case and accents aside the name is the same")
        let near = locator.aim(AimRequest(observer: observer, target: .named("Santos")), resolve: { _, _, _ in .found(saentis) })
        #expect(near.error == nil && near.target?.name == "Säntis")
        #expect(near.warnings == [Warning(.nameMismatch, "target.name \"Santos\" is not the name of the place aimed at: the place search's best match is Säntis; give latitude and longitude to aim elsewhere")])
    }
}
