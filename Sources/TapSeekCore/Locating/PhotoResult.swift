import Foundation

/// What `tapseek photo` answers for one photo (the public interface, "Additions (wave 3)"): the
/// reading its metadata gives, where each value came from, the skyline found in its pixels, the
/// orientation fitted to the DEM, the taps' targets and the peaks in view.
public struct PhotoResult: Sendable, Hashable {
    /// `calibrated` (orientation from the skyline fit), `uncalibrated` (from the file and
    /// options; a warning says why), or `error`.
    public enum Status: String, Sendable, Hashable, Codable { case calibrated, uncalibrated, error }

    /// Where each value of ``reading`` came from; nil where the reading has no such value.
    public struct Sources: Sendable, Hashable, Codable {
        public var location: PhotoValueSource?
        public var altitude: PhotoValueSource?
        public var heading: PhotoValueSource?
        public var pitch: PhotoValueSource?
        public var roll: PhotoValueSource?
        public var horizontalFOV: PhotoValueSource?
        public var time: PhotoValueSource?

        public init() {}
    }

    /// The detected skyline: its points in image pixels, each point's confidence and the share of
    /// columns that have one.
    public struct Skyline: Sendable, Hashable {
        public var points: [Reading.Pixel]
        /// Parallel to ``points`` (or empty: none known): how sure the detector is of each point,
        /// 0…1 (``SkylineDetector/Point/confidence``; points below
        /// ``SkylineDetector/minimumConfidence`` are left out).
        public var confidence: [Double]
        public var coverage: Double

        public init(points: [Reading.Pixel], confidence: [Double] = [], coverage: Double) {
            self.points = points
            self.confidence = confidence.count == points.count ? confidence : []
            self.coverage = coverage
        }
    }

    /// A summit of the DEM's skyline inside the image.
    public struct Peak: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level.
        public var elevation: Double
        /// Metres from the observer.
        public var distance: Double
        /// Where it appears in the image.
        public var pixel: Reading.Pixel
        /// Degrees of the skyline's fall on both sides (see ``Panorama/Peak/prominence``).
        public var prominence: Double
        /// The summit's name from the gazetteer (``FeatureNaming``), and its GeoNames code.
        public var name: String?
        public var nameKind: String?
    }

    /// The photo's file name, as given (set by the command line).
    public var file: String?
    public var status: Status
    /// The reading the photo gives (with the calibrated orientation when calibrated); nil when
    /// the metadata could not be read.
    public var reading: Reading?
    public var sources: Sources?
    public var skyline: Skyline?
    public var calibration: Calibration?
    /// One locate result per tap, in order.
    public var taps: [LocateResult]
    public var peaks: [Peak]
    public var warnings: [Warning]
    public var error: LocateResult.Failure?
    /// The DEM's skyline across the image under the final orientation, image pixels (for drawing).
    public var demSkyline: [Reading.Pixel]
    /// The tapped pixels, in the order of ``taps`` (for drawing).
    public var tapPixels: [Reading.Pixel] = []

    public init(file: String? = nil, status: Status, reading: Reading? = nil, sources: Sources? = nil, skyline: Skyline? = nil,
                calibration: Calibration? = nil, taps: [LocateResult] = [], peaks: [Peak] = [], warnings: [Warning] = [],
                error: LocateResult.Failure? = nil, demSkyline: [Reading.Pixel] = []) {
        self.file = file
        self.status = status
        self.reading = reading
        self.sources = sources
        self.skyline = skyline
        self.calibration = calibration
        self.taps = taps
        self.peaks = peaks
        self.warnings = warnings
        self.error = error
        self.demSkyline = demSkyline
    }

    /// A result for a photo that could not be answered: the reason, and whatever its metadata said.
    public static func failure(_ code: FailureCode, _ message: String, file: String? = nil, reading: Reading? = nil,
                               sources: Sources? = nil, warnings: [Warning] = []) -> PhotoResult {
        PhotoResult(file: file, status: .error, reading: reading, sources: sources, warnings: warnings,
                    error: LocateResult.Failure(code: code, message: message))
    }
}

extension PhotoResult: Encodable {
    private enum Keys: String, CodingKey {
        case file, status, reading, sources, skyline, calibration, taps, peaks, warnings, warningCodes, error
    }
    private enum ReadingKeys: String, CodingKey { case time, location, orientation, camera }
    private enum LocationKeys: String, CodingKey { case latitude, longitude, altitude, altitudeReference }
    private enum OrientationKeys: String, CodingKey { case heading, headingReference, pitch, roll }
    private enum CameraKeys: String, CodingKey { case horizontalFOV, imageWidth, imageHeight }
    private enum SkylineKeys: String, CodingKey { case points, coverage }
    private enum PixelKeys: String, CodingKey { case x, y }
    private enum SkylinePointKeys: String, CodingKey { case x, y, confidence }
    private enum PeakKeys: String, CodingKey { case latitude, longitude, elevation, distance, prominence, name, nameKind, pixel }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encodeIfPresent(file, forKey: .file)
        try c.encode(status, forKey: .status)
        if let reading {
            var r = c.nestedContainer(keyedBy: ReadingKeys.self, forKey: .reading)
            try r.encodeIfPresent(reading.time.map(ISO8601DateTime.format), forKey: .time)
            var l = r.nestedContainer(keyedBy: LocationKeys.self, forKey: .location)
            try l.encode(FixedDecimal.position(reading.location.latitude), forKey: .latitude)
            try l.encode(FixedDecimal.position(reading.location.longitude), forKey: .longitude)
            try l.encodeIfPresent(reading.location.altitude.map(FixedDecimal.metres), forKey: .altitude)
            if reading.location.altitude != nil { try l.encode(reading.location.altitudeReference.rawValue, forKey: .altitudeReference) }
            if let o = reading.orientation {
                var oc = r.nestedContainer(keyedBy: OrientationKeys.self, forKey: .orientation)
                try oc.encode(FixedDecimal.fourPlaces(o.heading), forKey: .heading)
                try oc.encode(o.headingReference.rawValue, forKey: .headingReference)
                try oc.encode(FixedDecimal.fourPlaces(o.pitch), forKey: .pitch)
                try oc.encode(FixedDecimal.fourPlaces(o.roll), forKey: .roll)
            }
            if let camera = reading.camera {
                var cc = r.nestedContainer(keyedBy: CameraKeys.self, forKey: .camera)
                try cc.encode(FixedDecimal.fourPlaces(camera.horizontalFOV), forKey: .horizontalFOV)
                try cc.encode(Int(camera.imageWidth), forKey: .imageWidth)
                try cc.encode(Int(camera.imageHeight), forKey: .imageHeight)
            }
        }
        try c.encodeIfPresent(sources, forKey: .sources)
        if let skyline {
            var s = c.nestedContainer(keyedBy: SkylineKeys.self, forKey: .skyline)
            var points = s.nestedUnkeyedContainer(forKey: .points)
            for (i, p) in skyline.points.enumerated() {
                var pc = points.nestedContainer(keyedBy: SkylinePointKeys.self)
                try pc.encode(FixedDecimal(p.x, places: 1), forKey: .x)
                try pc.encode(FixedDecimal(p.y, places: 1), forKey: .y)
                if i < skyline.confidence.count { try pc.encode(FixedDecimal(skyline.confidence[i], places: 2), forKey: .confidence) }
            }
            try s.encode(FixedDecimal(skyline.coverage, places: 3), forKey: .coverage)
        }
        try c.encodeIfPresent(calibration, forKey: .calibration)
        try c.encode(taps, forKey: .taps)
        var peaksContainer = c.nestedUnkeyedContainer(forKey: .peaks)
        for p in peaks {
            var pc = peaksContainer.nestedContainer(keyedBy: PeakKeys.self)
            try pc.encode(FixedDecimal.position(p.latitude), forKey: .latitude)
            try pc.encode(FixedDecimal.position(p.longitude), forKey: .longitude)
            try pc.encode(FixedDecimal(p.elevation, places: 1), forKey: .elevation)
            try pc.encode(FixedDecimal(p.distance, places: 1), forKey: .distance)
            try pc.encode(FixedDecimal(p.prominence, places: 3), forKey: .prominence)
            try pc.encodeIfPresent(p.name, forKey: .name)
            try pc.encodeIfPresent(p.nameKind, forKey: .nameKind)
            var pixel = pc.nestedContainer(keyedBy: PixelKeys.self, forKey: .pixel)
            try pixel.encode(FixedDecimal(p.pixel.x, places: 1), forKey: .x)
            try pixel.encode(FixedDecimal(p.pixel.y, places: 1), forKey: .y)
        }
        try c.encode(warnings, messages: .warnings, codes: .warningCodes)
        try c.encodeIfPresent(error, forKey: .error)
    }
}
