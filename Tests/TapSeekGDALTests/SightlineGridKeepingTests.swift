import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekTestSupport

/// A sightline's walk keeps the tile's grid from one 5 km segment to the next when the terrain
/// says it answers its last grid first (``TerrainGrids/answersLastGridFirst``, true of
/// ``TerrainSampler``), instead of asking for it again at every segment. The march must not
/// change by a bit: on N47E009 whole and cut into four tiles whose seams fall between posts (so
/// that rays cross tiles, one-cell seam grids and the data's edge), every march of a fan of
/// rays is compared with the march over the same sampler asked at every segment.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct SightlineGridKeepingTests {
    /// The sampler behind a count of grid look-ups; `Keeps` says whether it declares that it
    /// answers its last grid first (it does: it forwards to a ``TerrainSampler`` and nothing else).
    struct Counting<Keeps: KeepsFlag>: TerrainGrids {
        var sampler: TerrainSampler
        var asks = 0

        static var answersLastGridFirst: Bool { Keeps.value }

        mutating func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
            asks += 1
            return sampler.grid(containing: latitude, longitude: longitude)
        }

        mutating func sample(latitude: Double, longitude: Double) -> TerrainSample {
            sampler.sample(latitude: latitude, longitude: longitude)
        }
    }

    protocol KeepsFlag { static var value: Bool { get } }
    enum Keeping: KeepsFlag { static var value: Bool { true } }
    enum Asking: KeepsFlag { static var value: Bool { false } }

    /// Every number of a march's answer, as bits (NaN where there is none).
    static func bits(_ r: SightlineMarch.Result) -> [UInt64] {
        [r.latitude, r.longitude, r.elevation, r.slantRange, r.marchedDistance, r.leftData ?? -1,
         r.unknownStretch?.lowerBound ?? -1, r.unknownStretch?.upperBound ?? -1].map(\.bitPattern)
    }

    @Test func keepingTheGridAnswersAsAskingEverySegment() throws {
        let source = SharedData.dem.appendingPathComponent("N47E009.hgt")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let whole = try SharedData.temporaryDirectory("keep-whole"), quarters = try SharedData.temporaryDirectory("keep-quarters")
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: quarters)
        }
        try FileManager.default.createSymbolicLink(at: whole.appendingPathComponent("N47E009.hgt"), withDestinationURL: source)
        try SharedData.writeQuarters(of: source, to: quarters)
        let geoid = try Geoid(gtxContentsOf: Geoid.defaultPath)
        for folder in [whole, quarters] {
            let catalog = try ElevationCatalog(directory: folder.path, rasterReader: .gdal, fillsVoids: false)
            var keeping = Counting<Keeping>(sampler: TerrainSampler(catalog: catalog))
            var asking = Counting<Asking>(sampler: TerrainSampler(catalog: catalog))
            var outcomes: [SightlineMarch.Outcome: Int] = [:]
            // From 300 m over the middle of the tile, where the four quarters meet, and from a
            // point near the tile's east edge: rays across seams, tiles and out of the data.
            for (latitude, longitude) in [(47.4998, 9.5002), (47.3, 9.93)] {
                let height = asking.sampler.elevation(latitude: latitude, longitude: longitude)
                let ground = try #require(height)
                let eye = GeodeticPosition(latitude: latitude, longitude: longitude,
                                           height: ground + 300 + geoid.undulation(latitude: latitude, longitude: longitude))
                for azimuth in stride(from: 0.0, to: 360, by: 7.5) {
                    for pitch in [-0.2, -1.0, -2.5, -6.0] {
                        let direction = ViewDirection(azimuth: azimuth, elevation: pitch).enu
                        var a = SightlineMarch(observer: eye, direction: direction, geoid: geoid, settings: MarchSettings())
                        var b = SightlineMarch(observer: eye, direction: direction, geoid: geoid, settings: MarchSettings())
                        let kept = a.run(over: &keeping, maximumTerrain: 2502)
                        let asked = b.run(over: &asking, maximumTerrain: 2502)
                        #expect(kept.outcome == asked.outcome && kept.crossedVoid == asked.crossedVoid
                                    && Self.bits(kept) == Self.bits(asked),
                                "\(folder.lastPathComponent) from \(latitude), \(longitude), azimuth \(azimuth)°, pitch \(pitch)°")
                        outcomes[asked.outcome, default: 0] += 1
                    }
                }
            }
            // The fan meets the terrain and sees skylines past the data's edge alike, and the
            // keeping walks asked for grids less often.
            #expect(outcomes[.hit, default: 0] > 50 && outcomes[.horizon, default: 0] > 20, "\(outcomes)")
            #expect(keeping.asks < asking.asks, "\(keeping.asks) look-ups kept, \(asking.asks) asked")
            print("\(folder.lastPathComponent): \(outcomes), grid look-ups \(keeping.asks) kept, \(asking.asks) asked")
        }
    }
}
