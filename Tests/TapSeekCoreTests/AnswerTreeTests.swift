import Foundation
import TapSeekTestSupport
import Testing
@testable import TapSeekCore

/// The answer tree must give exactly what the long way (zone, country and region layers, the
/// k-d tree) gives: it is only a faster route to the same look-up. Checked on the real index
/// that `scripts/build-geocoder-index.sh` builds (CI builds it before the tests).
enum AnswerTreeFixture {
    static let indexURL = SharedData.projectRoot.appendingPathComponent("data/build/geocoder-index.bin")
    static let placesURL = SharedData.projectRoot.appendingPathComponent("data/build/geocoder-sources/rg_cities1000.csv")
}

@Suite(.enabled(if: SharedData.available(AnswerTreeFixture.indexURL), "geocoder index not built: run scripts/build-geocoder-index.sh"))
struct AnswerTreeTests {
    let index: GeocoderIndex

    init() throws {
        index = try GeocoderIndex(contentsOf: AnswerTreeFixture.indexURL)
    }

    /// The differences between the two routes at `points`, described; empty when they agree.
    func disagreements(_ points: [(Double, Double)]) throws -> [String] {
        var found: [String] = []
        for (latitude, longitude) in points {
            let fast = try index.reference(latitude: latitude, longitude: longitude)
            let slow = try index.referenceTheLongWay(latitude: latitude, longitude: longitude)
            let same = fast.country == slow.country && fast.zone == slow.zone && fast.region == slow.region
                && fast.place == slow.place && fast.claims == slow.claims
                && fast.localityDistance.bitPattern == slow.localityDistance.bitPattern
            if !same { found.append("(\(latitude), \(longitude)): \(fast) against \(slow)") }
        }
        return found
    }

    /// Points uniform on the sphere; points within 3 km of GeoNames places, where candidate
    /// lists are longest and cells smallest; and points within 30 km of places, many of them
    /// offshore, where the region comes from the fringe search.
    @Test func agreesWithTheLongWayOnRandomPoints() throws {
        var random = SplitMix64(seed: 31)
        let places = try Self.places()
        var points: [(Double, Double)] = []
        for k in 0..<60_000 {
            if k % 3 == 0 {
                points.append((asin(2 * random.nextUnit() - 1) * 180 / .pi, 360 * random.nextUnit() - 180))
            } else {
                let place = places[Int(random.nextUnit() * Double(places.count))]
                let spread = k % 3 == 1 ? 0.054 : 0.54
                points.append((min(90, max(-90, place.0 + spread * (random.nextUnit() - 0.5))), place.1 + spread * (random.nextUnit() - 0.5)))
            }
        }
        let differences = try disagreements(points)
        #expect(differences.isEmpty, "\(differences.count) disagreements, first: \(differences.prefix(5))")
    }

    /// At every GeoNames place's own coordinates: the distance is then (nearly) zero, and places
    /// that share coordinates tie; both routes must pick the same one.
    @Test func agreesWithTheLongWayAtEveryPlace() throws {
        let places = try Self.places()
        #expect(places.count > 140_000)
        let differences = try disagreements(places)
        #expect(differences.isEmpty, "\(differences.count) disagreements, first: \(differences.prefix(5))")
    }

    /// The tree answers most land at once (with the region layer asked near region borders and
    /// offshore); the rest, near zone borders and in disputed areas, takes the long way. A build
    /// that answered nowhere would still be right, but slow: this guards against that.
    @Test func answersMostLandAtOnce() throws {
        var random = SplitMix64(seed: 7)
        var land = 0, atOnce = 0
        while land < 20_000 {
            let latitude = asin(2 * random.nextUnit() - 1) * 180 / .pi, longitude = 360 * random.nextUnit() - 180
            guard try index.reference(latitude: latitude, longitude: longitude).country >= 0 else { continue }
            land += 1
            if index.isAnsweredAtOnce(latitude: latitude, longitude: longitude) { atOnce += 1 }
        }
        #expect(Double(atOnce) / Double(land) > 0.85, "\(atOnce) of \(land)")
    }

    static func places() throws -> [(Double, Double)] {
        let text = try String(contentsOf: AnswerTreeFixture.placesURL, encoding: .utf8)
        return text.split(whereSeparator: \.isNewline).dropFirst().compactMap { line in
            // lat,lon,name,admin1,admin2,cc: the coordinates come first and are never quoted.
            let fields = line.split(separator: ",", maxSplits: 2)
            guard fields.count == 3, let lat = Double(fields[0]), let lon = Double(fields[1]) else { return nil }
            return (lat, lon)
        }
    }
}
