import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Sampled sensor errors around real readings: regions that hold what they promise, exact
/// readings that give a point, and answers that depend only on the seed.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(5)))
struct TargetUncertaintyTests {
    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid())
    }

    /// From Grindelwald toward the Eiger's north-east flank, pitched to hit it well below the
    /// crest (no grazing), with the given accuracies.
    static func reading(heading: Double = 210, pitch: Double = 11, accuracy: Double = 1) -> Reading {
        Reading(location: .init(latitude: 46.6240, longitude: 8.0410, horizontalAccuracy: 5 * accuracy),
                orientation: .init(heading: heading, pitch: pitch, headingAccuracy: 2 * accuracy, pitchAccuracy: 0.5 * accuracy,
                                   rollAccuracy: 0.5 * accuracy))
    }

    @Test func exactSensorsGiveARegionOfZeroSizeAtTheTarget() throws {
        let result = try Self.locator().locate(Self.reading(accuracy: 0), uncertainty: .init(samples: 50), jobs: 2)
        let target = try #require(result.target), u = try #require(result.uncertainty)
        #expect(result.status == .hit && u.hitShare == 1)
        for region in [u.region50, u.region95] {
            #expect(region.polygons.count == 1)
            for v in region.polygons.flatMap({ $0 }) {
                #expect(abs(v.latitude - target.latitude) < 1e-9 && abs(v.longitude - target.longitude) < 1e-9)
            }
        }
        #expect(u.distance.p2_5 == target.distance && u.distance.p97_5 == target.distance)
    }

    @Test func theSameSeedGivesTheSameAnswerWhateverTheJobs() throws {
        let locator = try Self.locator()
        let one = try #require(locator.locate(Self.reading(), uncertainty: .init(samples: 120, seed: 7), jobs: 1).uncertainty)
        let two = try #require(locator.locate(Self.reading(), uncertainty: .init(samples: 120, seed: 7), jobs: 2).uncertainty)
        let other = try #require(locator.locate(Self.reading(), uncertainty: .init(samples: 120, seed: 8), jobs: 2).uncertainty)
        #expect(one.region95 == two.region95 && one.region50 == two.region50 && one.hitShare == two.hitShare)
        #expect(one.distance == two.distance)
        #expect(one.region95 != other.region95)
    }

    /// Calibration: readings whose true orientation is known are perturbed with the stated
    /// sigmas; the true target must fall inside `region95` in 90–99 % of the trials and inside
    /// `region50` in 40–60 %. Too big regions fail the second check, too small ones the first.
    /// With the default 1 000 samples and with 200 (the regions must not depend on the count).
    @Test(arguments: [1000, 200])
    func regionsHoldTheTrueTargetAsOftenAsTheyPromise(samples: Int) throws {
        let locator = try Self.locator()
        let trials = 400
        var in95 = 0, in50 = 0, counted = 0
        for t in 0..<trials {
            // True orientations spread over the Eiger's flank.
            let truth = Self.reading(heading: 204 + Double(t % 12), pitch: 9 + Double(t % 4))
            guard let target = locator.locate(truth).target else { continue }
            let sigmas = SensorSigmas(reading: truth)
            let observed = Locator.perturbedForCalibration(truth, by: sigmas, seed: 10_000 + UInt64(t))
            guard let u = locator.locate(observed, uncertainty: .init(samples: samples, seed: UInt64(t)), jobs: 2).uncertainty else { continue }
            counted += 1
            if u.region95.contains(latitude: target.latitude, longitude: target.longitude) { in95 += 1 }
            if u.region50.contains(latitude: target.latitude, longitude: target.longitude) { in50 += 1 }
        }
        #expect(counted >= trials * 9 / 10)
        let share95 = Double(in95) / Double(counted), share50 = Double(in50) / Double(counted)
        let said = "of \(counted) trials, \(samples) samples"
        #expect(share95 >= 0.90 && share95 <= 0.99, "95 % region held the truth in \(share95 * 100) % \(said)")
        #expect(share50 >= 0.40 && share50 <= 0.60, "50 % region held the truth in \(share50 * 100) % \(said)")
    }
}
