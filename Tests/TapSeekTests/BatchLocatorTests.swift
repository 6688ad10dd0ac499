import Foundation
import Synchronization
import Testing
import TapSeek
import TapSeekTestSupport

/// `BatchLocator`: results in input order with their lines, the same as locating each reading
/// alone, for any number of jobs, reading ahead only a bounded number of chunks.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct BatchLocatorTests {
    /// One locator over the shared tiles for every test (opening the catalog scans the folder).
    static let locator: Locator? = {
        guard let catalog = try? ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), let geoid = try? Geoid() else { return nil }
        return Locator(catalog: catalog, geoid: geoid)
    }()

    func requireLocator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return try #require(Self.locator, "cannot open ../shared/dem or the EGM96 geoid")
    }

    /// Grindelwald, the observer of the interface's example.
    static let grindelwald = Reading.Location(latitude: 46.6240, longitude: 8.0410)

    /// Readings of every kind: sightlines all around Grindelwald (most hit the ground nearby,
    /// the ones looking up at the Eiger hit it), location-only records and an observer outside
    /// every tile.
    static func mixedReadings(count: Int) -> [Reading] {
        (0..<count).map { i in
            switch i % 6 {
            case 0: Reading(id: "where\(i)", location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1100))
            case 1: Reading(id: "sea\(i)", location: .init(latitude: 10, longitude: 10), orientation: .init(heading: 0, pitch: 0))
            case 2: Reading(id: "eiger\(i)", location: grindelwald, orientation: .init(heading: 208, pitch: 26))
            default: Reading(id: "r\(i)", location: grindelwald, orientation: .init(heading: Double(i * 37 % 360), pitch: -15))
            }
        }
    }

    static func stream<T: Sendable>(_ values: [T]) -> AsyncStream<T> {
        AsyncStream { continuation in
            for value in values { continuation.yield(value) }
            continuation.finish()
        }
    }

    /// What two results must share to be the same answer.
    func same(_ a: LocateResult, _ b: LocateResult) -> Bool {
        a.id == b.id && a.status == b.status && a.target == b.target && a.observer == b.observer
            && a.sightline == b.sightline && a.error == b.error && a.warnings == b.warnings && a.track.count == b.track.count
    }

    @Test func resultsAreInInputOrderAndEqualToLocatingEachReadingAlone() async throws {
        let locator = try requireLocator()
        let readings = Self.mixedReadings(count: 40)
        let batch = BatchLocator(locator: locator, jobs: 4, chunkSize: 3)
        var results: [LocateResult] = []
        for try await result in batch.results(forReadings: Self.stream(readings)) { results.append(result) }
        try #require(results.count == readings.count)
        #expect(results.map(\.line) == Array(1...40))
        for (reading, result) in zip(readings, results) {
            #expect(same(result, locator.locate(reading)), "\(reading.id ?? "")")
        }
    }

    @Test func theEigerReadingHitsTheEiger() async throws {
        let locator = try requireLocator()
        let reading = Reading(location: Self.grindelwald, orientation: .init(heading: 208, pitch: 26))
        var results: [LocateResult] = []
        for try await r in BatchLocator(locator: locator).results(forReadings: Self.stream([reading])) { results.append(r) }
        let target = try #require(results.first?.target)
        // Summit 46.5775 N, 8.0050 E, 3 967 m (swisstopo). The ray at 26° passes the summit's
        // distance about 60 m below it: it meets the north face (a void of SRTM v2, filled)
        // just below the top.
        let north = (target.latitude - 46.5775) * 111_195, east = (target.longitude - 8.0050) * 111_195 * cos(46.5775 * .pi / 180)
        #expect((north * north + east * east).squareRoot() < 300)
        #expect(target.elevation > 3800 && target.elevation < 3967, "\(target.elevation) m")
        #expect(results.first?.warnings.contains { $0.code == .filledVoid } == true)
        #expect(results.first?.status == .hit && results.first?.line == 1)
    }

    @Test func oneJobAndManyGiveTheSameResults() async throws {
        let locator = try requireLocator()
        let readings = Self.mixedReadings(count: 60)
        func run(jobs: Int) async throws -> [LocateResult] {
            var out: [LocateResult] = []
            for try await r in BatchLocator(locator: locator, jobs: jobs, chunkSize: 5).results(forReadings: Self.stream(readings)) {
                out.append(r)
            }
            return out
        }
        let one = try await run(jobs: 1), many = try await run(jobs: 3)
        try #require(one.count == 60 && many.count == 60)
        for (a, b) in zip(one, many) { #expect(same(a, b) && a.line == b.line) }
    }

    /// A failed record keeps its own line number and message, between located neighbours.
    @Test func failedRecordsBecomeErrorResultsAtTheirLine() async throws {
        let locator = try requireLocator()
        let records = [
            BatchRecord(line: 3, reading: Reading(location: Self.grindelwald, orientation: .init(heading: 90, pitch: -20))),
            BatchRecord(line: 5, failure: .badInput(line: 5, "invalid JSON")),
            BatchRecord(line: 8, reading: Reading(location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1100))),
        ]
        var results: [LocateResult] = []
        for try await r in BatchLocator(locator: locator, jobs: 2, chunkSize: 1).results(for: Self.stream(records)) { results.append(r) }
        #expect(results.map(\.line) == [3, 5, 8])
        #expect(results.map(\.status.rawValue) == ["hit", "error", "location"])
        #expect(results[1].error == LocateResult.Failure(code: .badInput, message: "line 5: invalid JSON"))
    }

    /// A location-only record stands on the DEM: Grindelwald's village lies at 1034 m
    /// (Wikipedia, "Grindelwald"), within the SRTM's tens of metres.
    @Test func locationOnlyRecordGivesTheObserversGround() async throws {
        let locator = try requireLocator()
        let reading = Reading(time: Date(timeIntervalSince1970: 1_800_000_000), location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1100))
        var results: [LocateResult] = []
        for try await r in BatchLocator(locator: locator).results(forReadings: Self.stream([reading])) { results.append(r) }
        let result = try #require(results.first)
        #expect(result.status.rawValue == "location")
        #expect(result.target == nil && result.error == nil)
        #expect(abs((result.observer?.groundElevation ?? 0) - 1034) < 60)
        #expect(result.observer?.altitude == 1100)
        #expect(result.time == reading.time)
    }

    /// An error of the input comes after the results of the records before it.
    @Test func inputErrorEndsTheResultsAfterTheRecordsBeforeIt() async throws {
        struct Broken: Error {}
        let locator = try requireLocator()
        let readings = AsyncThrowingStream<Reading, any Error> { continuation in
            for _ in 0..<5 { continuation.yield(Reading(location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1100))) }
            continuation.finish(throwing: Broken())
        }
        var lines: [Int?] = []
        await #expect(throws: Broken.self) {
            for try await r in BatchLocator(locator: locator, jobs: 2, chunkSize: 2).results(forReadings: readings) { lines.append(r.line) }
        }
        #expect(lines == [1, 2, 3, 4, 5])
    }

    /// Input is pulled only as results are consumed: after any result, at most `jobs` chunks of
    /// records have been read and not yet handed out.
    @Test func readsAheadAtMostJobsChunks() async throws {
        let locator = try requireLocator()
        let counter = CountingReadings(count: 200)
        let batch = BatchLocator(locator: locator, jobs: 2, chunkSize: 4)
        var taken = 0
        for try await _ in batch.results(forReadings: counter) {
            taken += 1
            #expect(counter.produced - taken <= 2 * 4, "read \(counter.produced) for \(taken) results")
        }
        #expect(taken == 200 && counter.produced == 200)
    }
}

/// `count` location-only readings, counting how many were taken.
final class CountingReadings: AsyncSequence, Sendable {
    let count: Int
    private let taken = Atomic(0)

    init(count: Int) { self.count = count }

    var produced: Int { taken.load(ordering: .relaxed) }

    struct AsyncIterator: AsyncIteratorProtocol {
        let owner: CountingReadings
        mutating func next() async -> Reading? {
            let n = owner.taken.add(1, ordering: .relaxed).newValue
            guard n <= owner.count else {
                owner.taken.subtract(1, ordering: .relaxed)
                return nil
            }
            return Reading(location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1100))
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(owner: self) }
}
