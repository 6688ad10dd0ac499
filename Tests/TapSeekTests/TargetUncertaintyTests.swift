import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Sampled sensor errors around real readings: regions that hold what they promise, exact
/// readings that give a point, and answers that depend only on the seed.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
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

    /// The progress of a run is heard in increasing counts, at least every
    /// ``Locator/progressStride`` samples per thread, ending at the total (issue 29, item 9:
    /// before, a long run said nothing until done).
    @Test func uncertaintyProgressCountsUpToEverySample() throws {
        let heard = Locked<[(Int, Int)]>([])
        let result = try Self.locator().locate(Self.reading(), uncertainty: .init(samples: 300), jobs: 2) { done, total in
            heard.withLock { $0.append((done, total)) }
        }
        #expect(result.uncertainty?.samples == 300)
        let calls = heard.withLock { $0 }
        #expect(calls.allSatisfy { $0.1 == 300 })
        let counts = calls.map(\.0)
        #expect(counts == counts.sorted() && Set(counts).count == counts.count, "\(counts)")
        #expect(counts.last == 300)
        // Two threads of 150 samples, each heard every 64 and at its end.
        #expect(counts.count == 6, "\(counts)")
    }

    /// Candidates say how far the place lies from the samples they stand for, and a locality
    /// beyond 5 km is no candidate. A stand-in geocoder knows two places, one 2 km east of the
    /// reading's target and one 11.5 km north of it, and answers the nearer with its geodesic
    /// distance (PROJ's Karney): the near one is a candidate about 2 km away (the samples
    /// spread by some hundred metres); alone, the far one is none, and all samples are unnamed.
    @Test func candidatesCarryTheirDistanceAndFarLocalitiesAreNone() throws {
        let base = try Self.locator()
        let target = try #require(base.locate(Self.reading()).target)
        func place(_ name: String, north: Double, east: Double) -> (String, Double, Double) {
            let n = Geodesic.direct(latitude: target.latitude, longitude: target.longitude, azimuth: 0, distance: north)
            let e = Geodesic.direct(latitude: n.latitude2, longitude: n.longitude2, azimuth: 90, distance: east)
            return (name, e.latitude2, e.longitude2)
        }
        func locator(_ places: [(String, Double, Double)]) -> Locator {
            Locator(catalog: base.catalog, geoid: base.geoid, placemarks: { latitude, longitude in
                let nearest = places.map { p in
                    (p.0, Geodesic.inverse(latitude1: latitude, longitude1: longitude, latitude2: p.1, longitude2: p.2).distance)
                }.min { $0.1 < $1.1 }
                return Placemark(locality: nearest?.0, localityDistance: nearest?.1)
            })
        }
        let both = [place("Near", north: 0, east: 2000), place("Far", north: 11_500, east: 0)]
        let near = try #require(locator(both).locate(Self.reading(), uncertainty: .init(samples: 200), jobs: 2).uncertainty)
        let candidate = try #require(near.candidates.first)
        #expect(candidate.name == "Near" && near.candidates.count == 1, "\(near.candidates)")
        #expect(abs(candidate.distance - 2000) < 300, "\(candidate.distance)")
        #expect(abs(candidate.probability + near.unnamed - 1) < 1e-9)
        let far = try #require(locator([both[1]]).locate(Self.reading(), uncertainty: .init(samples: 200), jobs: 2).uncertainty)
        #expect(far.candidates.isEmpty && far.unnamed == 1, "\(far.candidates)")
        let json = String(decoding: try CompactJSONEncoder().encode(far), as: UTF8.self)
        #expect(json.contains(#""candidates":[],"unnamed":{"probability":1,"radius":5000}"#), "\(json)")
        // Two places 400 m either side of the target share the samples: both are candidates,
        // and the result says the region spans more than one.
        let sides = [place("West", north: 0, east: -400), place("East", north: 0, east: 400)]
        let split = locator(sides).locate(Self.reading(), uncertainty: .init(samples: 200), jobs: 2)
        #expect(Set(split.uncertainty?.candidates.map(\.name) ?? []) == ["West", "East"])
        #expect(split.uncertainty?.candidates.allSatisfy { $0.distance < 1000 } == true)
        #expect(split.warnings.contains { $0.code == .severalPlaces }, "\(split.warnings)")
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
