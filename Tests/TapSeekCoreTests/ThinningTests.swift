import Foundation
import Testing

@testable import TapSeekCore

@Suite struct ThinningTests {
    /// Records from a list; `nil` position → an error record.
    struct Records: ImportedRecordSource {
        var items: [(time: Double?, position: (Double, Double)?)]
        var index = 0

        mutating func next() throws(ImportError) -> ImportedRecord? {
            guard index < items.count else { return nil }
            defer { index += 1 }
            let item = items[index]
            let date = item.time.map { Date(timeIntervalSince1970: $0) }
            guard let (lat, lon) = item.position else {
                return ImportedRecord(line: index + 1, time: date, result: .failure(ImportError(.missingValue, line: index + 1, "no fix")))
            }
            return ImportedRecord(line: index + 1, time: date,
                                  result: .success(Reading(time: date, location: Reading.Location(latitude: lat, longitude: lon))))
        }
    }

    static func keptLines(_ items: [(time: Double?, position: (Double, Double)?)], _ thinning: Thinning) throws -> [Int] {
        var thinned = ThinnedRecords(Records(items: items), thinning: thinning)
        var lines: [Int] = []
        while let r = try thinned.next() { lines.append(r.line) }
        return lines
    }

    /// 0.001° of latitude is 111.2 m on the sphere of radius 6 371 008.8 m (π/180·R/1000 =
    /// 111.195 m); 0.0005° is 55.6 m.
    static let here = (46.0, 8.0)
    static func north(_ metres: Double) -> (Double, Double) { (46.0 + metres / 111_195.08, 8.0) }

    @Test func neitherOptionKeepsEverything() throws {
        let items: [(time: Double?, position: (Double, Double)?)] = [(0, Self.here), (0, Self.here), (nil, Self.here)]
        #expect(try Self.keptLines(items, Thinning()) == [1, 2, 3])
    }

    @Test func everyKeepsOneReadingPerPeriodWithJitterTolerance() throws {
        // 10 Hz samples with a kept reading every ≥ 1 s; 1.9995 s counts as 2 s (1 ms tolerance).
        let times: [Double] = [0, 0.1, 0.5, 0.9995, 1.2, 1.9995, 2.5, 3.1]
        let items = times.map { (time: Optional($0), position: Optional(Self.here)) }
        #expect(try Self.keptLines(items, Thinning(every: 1)) == [1, 4, 6, 8])
    }

    @Test func minMoveKeepsOnlyAfterASignificantMove() throws {
        let positions = [Self.here, Self.north(30), Self.north(49), Self.north(51), Self.north(80), Self.north(102)]
        let items = positions.enumerated().map { (time: Optional(Double($0.offset)), position: Optional($0.element)) }
        // Kept: start; 51 m (≥ 50 from 0); 102 m (51 m from 51, ≥ 50). 80 m is only 29 m on.
        #expect(try Self.keptLines(items, Thinning(minMove: 50)) == [1, 4, 6])
    }

    @Test func eitherCriterionKeeps() throws {
        // Stationary for 25 s at 1 Hz, then a 100 m jump: every 10 s or 50 m.
        var items: [(time: Double?, position: (Double, Double)?)] = (0..<25).map { (Double($0), Self.here) }
        items.append((25.5, Self.north(100)))
        #expect(try Self.keptLines(items, Thinning(every: 10, minMove: 50)) == [1, 11, 21, 26])
    }

    @Test func errorRecordsAreNeverDroppedAndUnknownTimesAreKept() throws {
        let items: [(time: Double?, position: (Double, Double)?)] = [(0, Self.here), (0.1, nil), (0.2, Self.here), (nil, Self.here), (0.3, Self.here)]
        #expect(try Self.keptLines(items, Thinning(every: 1)) == [1, 2, 4, 5])
    }

    @Test func clockStepBackwardsKeepsTheReading() throws {
        let items: [(time: Double?, position: (Double, Double)?)] = [(100, Self.here), (100.5, Self.here), (50, Self.here), (50.5, Self.here)]
        #expect(try Self.keptLines(items, Thinning(every: 1)) == [1, 3])
    }

    @Test func invalidOptionsAreRejectedNamingTheOption() {
        #expect(throws: ImportError.self) { try Thinning(every: -1).validated() }
        do {
            _ = try Thinning(minMove: .nan).validated()
            Issue.record("NaN accepted")
        } catch {
            #expect(error.column == "--min-move")
        }
        #expect((try? Thinning(every: 0, minMove: 5).validated()) != nil)
    }

    /// Across the antimeridian the distance is the short way: 179.9995° E to 179.9995° W at the
    /// equator is 0.001° = 111.2 m, not 359.999°.
    @Test func distanceAcrossTheAntimeridian() {
        let a = Thinning.Mark(time: nil, latitude: 0, longitude: 179.9995)
        let b = Thinning.Mark(time: nil, latitude: 0, longitude: -179.9995)
        #expect(abs(Thinning.distance(a, b) - 111.195) < 0.01)
    }
}
