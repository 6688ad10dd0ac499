import Dispatch
import Foundation

/// How far to trust a located target: the reading's sensor errors sampled through the engine.
///
/// Heading, pitch, roll, horizontal position and altitude are drawn from normal distributions
/// with the reading's 1-sigma accuracies (``SensorSigmas``: defaults where a field is missing,
/// 0 = exact; a magnetic heading adds the WMM2025 declination uncertainty), and every sample is
/// located like the reading itself. Deterministic for a seed, whatever the number of threads:
/// sample i draws from its own generator seeded with (seed, i).
public struct TargetUncertainty: Sendable, Hashable {
    /// A named place the sampled targets land on (the locality the geocoder gives for them,
    /// when it lies within ``candidateRadius`` of them).
    public struct Candidate: Sendable, Hashable {
        public var name: String
        /// The mean of the sampled targets named so, degrees.
        public var latitude: Double
        public var longitude: Double
        /// The share of the samples with a target that land there.
        public var probability: Double
        /// How far the place lies from the samples it stands for, metres: the median of their
        /// distances to it (the geocoder's ``Placemark/localityDistance``).
        public var distance: Double
    }

    /// Farthest a locality may lie from a sampled target and still name it, metres. A
    /// populated place farther away names a region, not what the camera looked at (an Everest
    /// face reading once named Lobujya, 11.5 km off); such samples count toward ``unnamed``.
    public static let candidateRadius = 5000.0

    /// Distances of the sampled targets from the observer, metres: the 2.5 %, 50 % and 97.5 %
    /// quantiles.
    public struct DistanceQuantiles: Sendable, Hashable {
        public var p2_5: Double
        public var p50: Double
        public var p97_5: Double

        public init(p2_5: Double, p50: Double, p97_5: Double) {
            self.p2_5 = p2_5
            self.p50 = p50
            self.p97_5 = p97_5
        }
    }

    /// How many samples, and from which seed.
    public struct Settings: Sendable, Hashable {
        public var samples: Int
        public var seed: UInt64
        public static let defaultSamples = 1000

        public init(samples: Int = Settings.defaultSamples, seed: UInt64 = 1) {
            self.samples = samples
            self.seed = seed
        }
    }

    public var samples: Int
    /// The sigmas sampled.
    public var sigmas: SensorSigmas
    /// The share of samples whose sightline hits the terrain (the others end on the skyline or fail).
    public var hitShare: Double
    /// Regions holding 50 % and 95 % of the sampled targets (hits and skyline points alike).
    public var region50: TargetRegion
    public var region95: TargetRegion
    /// How far from the observer the sampled targets lie.
    public var distance: DistanceQuantiles
    /// Named places the samples land on, most probable first.
    public var candidates: [Candidate]
    /// The share of the samples with a target that have no named place within
    /// ``candidateRadius`` (0 without a geocoder).
    public var unnamed: Double = 0
}

extension Locator {
    /// Locates a reading and, around the answer, the spread its sensors' errors allow
    /// (``TargetUncertainty``), with the samples shared among `jobs` threads. The result's
    /// `target` is the reading's own, unchanged by sampling; `uncertainty` is nil when the
    /// reading cannot be located. A calibrated reading (its own pixels, or `carried`) is
    /// sampled around its calibrated orientation with the calibration's sigma
    /// (``Calibration/sigma``) in place of the sensors' accuracies. `progress` hears (samples
    /// located, samples) every ``progressStride`` samples and at the end, from any thread.
    public func locate(_ original: Reading, uncertainty sampling: TargetUncertainty.Settings, carrying carried: Calibration? = nil,
                       jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                       progress: (@Sendable (Int, Int) -> Void)? = nil) -> LocateResult {
        locate(original, uncertainty: sampling, carrying: carried, orientationCovariance: nil, jobs: jobs, progress: progress)
    }

    /// Samples located between two calls of an uncertainty run's `progress`: a few milliseconds
    /// of work each, so the lock it takes costs nothing.
    public static let progressStride = 64

    /// As ``locate(_:uncertainty:carrying:jobs:progress:)``; a calibration's covariance (its own, or
    /// `orientationCovariance` for a reading already calibrated, as a photo's taps are) samples
    /// heading, pitch and roll together, correlated as the fit found them.
    func locate(_ original: Reading, uncertainty sampling: TargetUncertainty.Settings, carrying carried: Calibration?,
                orientationCovariance: [[Double]]?, jobs: Int, progress: (@Sendable (Int, Int) -> Void)? = nil) -> LocateResult {
        var terrain = TerrainSampler(catalog: catalog)
        let prepared = calibrated(original, carried: carried, terrain: &terrain)
        let reading = prepared.reading
        var result = locate(reading, terrain: &terrain)
        result.calibration = prepared.calibration
        result.warnings = Self.unknownFieldWarnings(original) + prepared.warnings + result.warnings
        guard result.status == .hit || result.status == .horizon, let orientation = reading.orientation,
              let observer = result.observer else { return result }
        var declination = 0.0
        if orientation.headingReference == .magnetic, let time = reading.time,
           let field = try? magneticModel.field(latitude: observer.latitude, longitude: observer.longitude,
                                                height: observer.altitude, date: time) {
            declination = MagneticModel.declinationUncertainty(horizontalIntensity: field.horizontalIntensity)
        }
        let sensors = SensorSigmas(reading: reading, declination: declination)
        let sigmas = (orientationCovariance ?? prepared.calibration?.covariance).map(sensors.with(orientationCovariance:)) ?? sensors
        let count = max(sampling.samples, 1)
        let shares = max(1, min(jobs, count))
        // Each sample's target, if any, and whether its sightline hit: all that is kept of it.
        let outcomes = Locked([[(target: LocateResult.Target?, hit: Bool)]](repeating: [], count: shares))
        var march = settings
        march.recordsProfile = false
        march.recordsTrack = false
        march.reportsFilledTerrain = false
        let quiet = Locator(catalog: catalog, geoid: geoid, settings: march, magneticModel: magneticModel)
        let seed = sampling.seed
        let located = Locked(0)
        DispatchQueue.concurrentPerform(iterations: shares) { share in
            var terrain = TerrainSampler(catalog: quiet.catalog)
            let first = share * count / shares, end = (share + 1) * count / shares
            var part: [(target: LocateResult.Target?, hit: Bool)] = []
            part.reserveCapacity(end - first)
            var unreported = 0
            for i in first..<end {
                let sample = quiet.locate(Self.perturbed(reading, by: sigmas, seed: seed, index: i), terrain: &terrain)
                part.append((sample.target, sample.status == .hit))
                unreported += 1
                if let progress, unreported == Self.progressStride || i == end - 1 {
                    // Under the lock: counts are heard in increasing order.
                    located.withLock {
                        $0 += unreported
                        progress($0, count)
                    }
                    unreported = 0
                }
            }
            outcomes.withLock { $0[share] = part }
        }
        let samples = outcomes.withLock { $0 }.flatMap { $0 }
        let targets = samples.compactMap(\.target)
        let hits = samples.filter(\.hit).count
        let points = targets.map { (latitude: $0.latitude, longitude: $0.longitude) }
        let distances = targets.map(\.distance).sorted()
        func quantile(_ q: Double) -> Double {
            guard !distances.isEmpty else { return .nan }
            let x = q * Double(distances.count - 1)
            let i = Int(x.rounded(.down)), j = min(i + 1, distances.count - 1)
            return distances[i] + (distances[j] - distances[i]) * (x - Double(i))
        }
        let regions = TargetRegion.regions(holding: [0.5, 0.95], of: points)
        result.uncertainty = TargetUncertainty(
            samples: count, sigmas: sigmas, hitShare: Double(hits) / Double(count), region50: regions[0], region95: regions[1],
            distance: .init(p2_5: quantile(0.025), p50: quantile(0.5), p97_5: quantile(0.975)), candidates: [])
        (result.uncertainty!.candidates, result.uncertainty!.unnamed) = candidates(of: targets)
        result.warnings += quiet.uncertaintyWarnings(reading, result: result)
        return result
    }

    /// Sample `index` of a reading: every sensor value moved by its sigma times a standard normal.
    static func perturbed(_ reading: Reading, by sigmas: SensorSigmas, seed: UInt64, index: Int) -> Reading {
        var normals = SeededNormals(seed: seed, index: index)
        var r = reading
        guard var o = r.orientation else { return r }
        var z = [normals.next(), normals.next(), normals.next()]
        if let l = sigmas.orientationFactor {
            z = [l[0][0] * z[0], l[1][0] * z[0] + l[1][1] * z[1], l[2][0] * z[0] + l[2][1] * z[1] + l[2][2] * z[2]]
        }
        o.heading = normalizedAzimuth(o.heading + sigmas.heading * z[0])
        o.pitch = min(max(o.pitch + sigmas.pitch * z[1], -90), 90)
        o.roll += sigmas.roll * z[2]
        r.orientation = o
        let axis = sigmas.horizontal / SensorSigmas.radius68
        let east = axis * normals.next(), north = axis * normals.next()
        let latitude = r.location.latitude
        r.location.latitude = min(max(latitude + north / 111_320, -90), 90)
        r.location.longitude = normalizedLongitude(r.location.longitude + east / (111_320 * max(cos(radians(latitude)), 1e-6)))
        let up = sigmas.vertical * normals.next()
        if let altitude = r.location.altitude { r.location.altitude = altitude + up }
        return r
    }

    /// One draw of a reading's sensor errors, as a calibration starts from a true reading.
    public static func perturbedForCalibration(_ reading: Reading, by sigmas: SensorSigmas, seed: UInt64) -> Reading {
        perturbed(reading, by: sigmas, seed: seed, index: 0)
    }

    /// The localities within ``TargetUncertainty/candidateRadius`` of the sampled targets, by
    /// share, and the share of targets with none that near; none without a geocoder.
    func candidates(of targets: [LocateResult.Target]) -> (candidates: [TargetUncertainty.Candidate], unnamed: Double) {
        guard let placemarks, !targets.isEmpty else { return ([], 0) }
        var groups: [String: (latitude: Double, longitude: Double, distances: [Double])] = [:]
        var unnamed = 0
        for t in targets {
            // `name` (a point of interest at the point itself) is nil offline; the locality
            // counts only within the radius.
            let p = placemarks(t.latitude, t.longitude)
            let name: String, distance: Double
            if let poi = p?.name {
                (name, distance) = (poi, 0)
            } else if let locality = p?.locality, let d = p?.localityDistance, d <= TargetUncertainty.candidateRadius {
                (name, distance) = (locality, d)
            } else {
                unnamed += 1
                continue
            }
            groups[name, default: (0, 0, [])].latitude += t.latitude
            groups[name, default: (0, 0, [])].longitude += t.longitude
            groups[name, default: (0, 0, [])].distances.append(distance)
        }
        let candidates = groups.map { name, g -> TargetUncertainty.Candidate in
            let n = Double(g.distances.count)
            let sorted = g.distances.sorted()
            let middle = sorted.count / 2
            let median: Double = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            return TargetUncertainty.Candidate(name: name, latitude: g.latitude / n, longitude: g.longitude / n,
                                               probability: n / Double(targets.count), distance: median)
        }
        .sorted { $0.probability > $1.probability || ($0.probability == $1.probability && $0.name < $1.name) }
        return (candidates, Double(unnamed) / Double(targets.count))
    }

    /// Fewer than ``fewHits`` of the samples hitting, a grazing sightline (the hit moves more
    /// than ``grazingKilometresPerDegree`` km per degree of pitch), and a 95 % region over more than one named place, said in words.
    /// Called on a locator without placemarks, profiles or tracks: only the targets count.
    private func uncertaintyWarnings(_ reading: Reading, result: LocateResult) -> [Warning] {
        var warnings: [Warning] = []
        if let share = result.uncertainty?.hitShare, share < Self.fewHits {
            let percent = String(format: "%.1f", 100 * share)
            warnings.append(Warning(.fewSamplesHit, "only \(percent) % of the uncertainty samples hit the terrain (the rest passed above it, met a void or left the DEM): the regions and distances describe a minority of the draws"))
        }
        if result.status == .hit, var o = reading.orientation, let d = result.target?.distance {
            var spread: [Double] = []
            for delta in [-0.5, 0.5] {
                var r = reading
                o.pitch = min(max((reading.orientation?.pitch ?? 0) + delta, -90), 90)
                r.orientation = o
                if let t = locate(r).target { spread.append(t.distance) }
            }
            let perDegree = (spread.map { abs($0 - d) }.max() ?? 0) / 0.5 / 1000
            if perDegree > Self.grazingKilometresPerDegree {
                warnings.append(Warning(.grazingSightline, String(format: "grazing sightline: the hit moves %.1f km per degree of pitch; the distance is ill-determined", perDegree)))
            }
        }
        let likely = result.uncertainty?.candidates.filter { $0.probability >= 0.025 } ?? []
        if likely.count > 1 {
            let names = likely.prefix(4).map { String(format: "%@ (%.0f %%)", $0.name, 100 * $0.probability) }.joined(separator: ", ")
            warnings.append(Warning(.severalPlaces, "the 95 % region spans more than one named place: \(names)"))
        }
        return warnings
    }

    /// The share of samples that must hit for the uncertainty to describe what the reading looks
    /// at: below a half, most draws of the sensors' errors see sky, a void or no DEM.
    public static let fewHits = 0.5

    /// Kilometres the hit may move per degree of pitch before the sightline counts as grazing.
    public static let grazingKilometresPerDegree = 1.0
}

extension TargetUncertainty: Codable {
    private enum CodingKeys: String, CodingKey { case samples, hitShare, region50, region95, distance, candidates, unnamed, sigmas }
    private enum UnnamedKeys: String, CodingKey { case probability, radius }

    /// `unnamed`: `{"probability": share, "radius": metres}`, the share of samples with no named
    /// place within the radius.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(samples, forKey: .samples)
        try c.encode(FixedDecimal.fourPlaces(hitShare), forKey: .hitShare)
        try c.encode(region50, forKey: .region50)
        try c.encode(region95, forKey: .region95)
        try c.encode(distance, forKey: .distance)
        try c.encode(candidates, forKey: .candidates)
        var u = c.nestedContainer(keyedBy: UnnamedKeys.self, forKey: .unnamed)
        try u.encode(FixedDecimal.fourPlaces(unnamed), forKey: .probability)
        try u.encode(FixedDecimal.metres(Self.candidateRadius), forKey: .radius)
        try c.encode(sigmas, forKey: .sigmas)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        samples = try c.decode(Int.self, forKey: .samples)
        hitShare = try c.decode(Double.self, forKey: .hitShare)
        region50 = try c.decode(TargetRegion.self, forKey: .region50)
        region95 = try c.decode(TargetRegion.self, forKey: .region95)
        distance = try c.decode(DistanceQuantiles.self, forKey: .distance)
        candidates = try c.decode([Candidate].self, forKey: .candidates)
        // JSON of versions before the cut-off has no `unnamed`.
        unnamed = c.contains(.unnamed)
            ? try c.nestedContainer(keyedBy: UnnamedKeys.self, forKey: .unnamed).decode(Double.self, forKey: .probability) : 0
        sigmas = try c.decode(SensorSigmas.self, forKey: .sigmas)
    }
}

extension TargetUncertainty.DistanceQuantiles: Codable {
    private enum CodingKeys: String, CodingKey {
        case p2_5 = "p2.5", p50, p97_5 = "p97.5"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.metres(p2_5), forKey: .p2_5)
        try c.encode(FixedDecimal.metres(p50), forKey: .p50)
        try c.encode(FixedDecimal.metres(p97_5), forKey: .p97_5)
    }
}

extension TargetUncertainty.Candidate: Codable {
    private enum CodingKeys: String, CodingKey { case name, latitude, longitude, probability, distance }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.fourPlaces(probability), forKey: .probability)
        try c.encode(FixedDecimal.metres(distance), forKey: .distance)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        latitude = try c.decode(Double.self, forKey: .latitude)
        longitude = try c.decode(Double.self, forKey: .longitude)
        probability = try c.decode(Double.self, forKey: .probability)
        distance = try c.decodeIfPresent(Double.self, forKey: .distance) ?? .nan
    }
}
