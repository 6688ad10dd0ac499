import Dispatch
import Foundation

extension Locator {
    /// Degrees between the azimuths of the DEM skyline a calibration fits against.
    public static let calibrationAzimuthStep = 0.05

    /// The orientation that best explains a reading's `skyline` and `landmarks` pixels
    /// (``OrientationFit``), searched within `limits` of the reading's own orientation, the DEM's
    /// skyline computed on `jobs` threads.
    ///
    /// - Throws: ``CalibrationError``: `bad-input` when the reading lacks what a calibration
    ///   needs (orientation, camera, points) or cannot be placed on the DEM; `no-fit` when the
    ///   points fit no orientation within the search well enough to trust.
    public func calibrate(_ reading: Reading, limits: OrientationFit.Limits = OrientationFit.Limits(),
                          jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws(CalibrationError) -> Calibration {
        var terrain = TerrainSampler(catalog: catalog)
        return try calibrate(reading, limits: limits, jobs: jobs, terrain: &terrain)
    }

    func calibrate(_ reading: Reading, limits: OrientationFit.Limits = OrientationFit.Limits(), jobs: Int,
                   terrain: inout TerrainSampler) throws(CalibrationError) -> Calibration {
        let camera: PinholeCamera, given: CameraOrientation, eye: GeodeticPosition
        do {
            (camera, given, eye) = try cameraView(of: reading, for: "calibration needs", terrain: &terrain)
        } catch {
            throw CalibrationError(code: error.code, message: error.message)
        }
        var landmarks: [OrientationFit.Landmark] = []
        for (i, l) in reading.landmarks.enumerated() {
            guard let elevation = l.elevation ?? terrain.elevation(latitude: l.latitude, longitude: l.longitude) else {
                throw .badInput("landmarks[\(i)] has no elevation and the DEM has none at (\(l.latitude), \(l.longitude))")
            }
            let point = position(latitude: l.latitude, longitude: l.longitude, msl: elevation)
            landmarks.append(.init(pixel: .init(x: l.x, y: l.y),
                                   direction: TargetSight(eye: eye, target: point, refraction: self.settings.refraction).view))
        }
        try OrientationFit.validate(camera: camera, skyline: reading.skyline, landmarks: landmarks)
        var profile: SkylineProfile?
        if !reading.skyline.isEmpty {
            let window = OrientationFit.azimuthWindow(given: given, camera: camera, skyline: reading.skyline, limits: limits)
            profile = skylineProfile(from: eye, azimuths: window, jobs: jobs, terrain: &terrain)
        }
        return try OrientationFit.fit(given: given, camera: camera, skyline: reading.skyline, landmarks: landmarks,
                                      profile: profile, limits: limits)
    }

    /// Where the DEM's skyline appears in a reading's image under the reading's own orientation:
    /// the skyline every ``calibrationAzimuthStep`` of azimuth across the view, projected to
    /// pixels (those inside the image, left to right as the azimuths run), for drawing it over
    /// the camera's picture or for making a trace.
    public func skylinePixels(of reading: Reading, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws(LocateResult.Failure) -> [Reading.Pixel] {
        try skylineInImage(of: reading, jobs: jobs).pixels
    }

    /// ``skylinePixels(of:jobs:)``, and how many of the azimuths across the image (one every
    /// ``calibrationAzimuthStep``) have no skyline to draw: no terrain data, or a skyline the DEM
    /// does not settle (``Panorama/Point/complete``).
    public func skylineInImage(of reading: Reading, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws(LocateResult.Failure) -> (pixels: [Reading.Pixel], unsettled: Int, azimuths: Int) {
        var terrain = TerrainSampler(catalog: catalog)
        let (camera, view, eye) = try cameraView(of: reading, for: "the skyline's pixels need", terrain: &terrain)
        // The image's border, every tenth of its sides: the azimuths it spans.
        let w = camera.imageWidth, h = camera.imageHeight
        let border = (0...10).flatMap { i -> [Reading.Pixel] in
            let f = Double(i) / 10
            return [.init(x: f * w, y: 0), .init(x: f * w, y: h), .init(x: 0, y: f * h), .init(x: w, y: f * h)]
        }
        let window = OrientationFit.azimuthWindow(given: view, camera: camera, skyline: border,
                                                  limits: .init(heading: 0, pitch: 0, roll: 0))
        let profile = skylineProfile(from: eye, azimuths: window, jobs: jobs, terrain: &terrain)
        var pixels: [Reading.Pixel] = []
        var unsettled = 0, across = 0
        for (i, angle) in profile.angles.enumerated() {
            let azimuth = profile.startAzimuth + Double(i) * profile.step
            // Whether the azimuth is across the image: its direction at the camera's pitch.
            if let p = view.pixel(of: ViewDirection(azimuth: azimuth, elevation: view.pitch).enu, camera: camera),
               p.x >= 0, p.x <= w {
                across += 1
                if angle.isNaN { unsettled += 1 }
            }
            guard !angle.isNaN else { continue }
            let direction = ViewDirection(azimuth: azimuth, elevation: angle)
            guard let p = view.pixel(of: direction.enu, camera: camera), camera.contains(pixelX: p.x, y: p.y) else { continue }
            pixels.append(.init(x: p.x, y: p.y))
        }
        return (pixels, unsettled, across)
    }

    /// A reading's camera, its orientation from true north, and the observer's eye: what both
    /// calibration and the skyline's pixels start from. `need` begins the message when the
    /// orientation or camera is missing ("calibration needs").
    func cameraView(of reading: Reading, for need: String,
                    terrain: inout TerrainSampler) throws(LocateResult.Failure) -> (PinholeCamera, CameraOrientation, GeodeticPosition) {
        guard let orientation = reading.orientation else {
            throw LocateResult.Failure(code: .badInput, message: "\(need) orientation (the sensors' guess)")
        }
        guard let settings = reading.camera else {
            throw LocateResult.Failure(code: .badInput, message: "\(need) camera.horizontalFOV, imageWidth and imageHeight")
        }
        var ignored: [Warning] = []
        let observer = try place(reading.location, terrain: &terrain, warnings: &ignored)
        let heading = try trueHeading(of: reading, orientation: orientation, observer: observer)
        return (PinholeCamera(settings), CameraOrientation(heading: heading, pitch: orientation.pitch, roll: orientation.roll),
                eye(of: observer))
    }

    /// The DEM's skyline seen from `eye` over a window of azimuths, every
    /// ``calibrationAzimuthStep``, its azimuths shared among `jobs` threads (one uses the
    /// caller's sampler).
    func skylineProfile(from eye: GeodeticPosition, azimuths window: ClosedRange<Double>, jobs: Int,
                        terrain: inout TerrainSampler) -> SkylineProfile {
        SkylineProfile(points: skylinePoints(from: eye, azimuths: window, jobs: jobs, terrain: &terrain), step: Self.calibrationAzimuthStep)
    }

    /// The skyline points behind ``skylineProfile(from:azimuths:jobs:terrain:)``: where the
    /// skyline is at each azimuth of the window, in order.
    /// With `range` (metres), the silhouette of the terrain within it alone.
    func skylinePoints(from eye: GeodeticPosition, azimuths window: ClosedRange<Double>, jobs: Int, range: Double? = nil,
                       terrain: inout TerrainSampler) -> [Panorama.Point] {
        let step = Self.calibrationAzimuthStep
        let settings = Panorama.Settings(azimuthStep: step, range: range ?? self.settings.skylineRange, refraction: self.settings.refraction)
        let eyeMSL = eye.height - geoid.undulation(latitude: eye.latitude, longitude: eye.longitude)
        let range = Panorama.range(settings: settings, eyeMSL: eyeMSL, latitude: eye.latitude)
        let first = Int((window.lowerBound / step).rounded(.down))
        let count = min(Int((window.upperBound / step).rounded(.up)) - first + 1, Panorama.azimuthCount(step: step))
        let shares = max(1, min(jobs, count))
        if shares == 1 {
            return Panorama.skyline(azimuths: first..<(first + count), eye: eye, geoid: geoid, settings: settings, range: range,
                                    over: &terrain).points
        }
        let parts = Locked([[Panorama.Point]](repeating: [], count: shares))
        let catalog = self.catalog, geoid = self.geoid
        DispatchQueue.concurrentPerform(iterations: shares) { share in
            let azimuths = (first + share * count / shares)..<(first + (share + 1) * count / shares)
            var sampler = TerrainSampler(catalog: catalog)
            let points = Panorama.skyline(azimuths: azimuths, eye: eye, geoid: geoid, settings: settings, range: range,
                                          over: &sampler).points
            parts.withLock { $0[share] = points }
        }
        return parts.withLock { $0 }.flatMap { $0 }
    }

    /// The reading's heading from true north at the observer, converted with the World Magnetic
    /// Model when it is magnetic.
    func trueHeading(of reading: Reading, orientation: Reading.Orientation,
                     observer: LocateResult.Observer) throws(LocateResult.Failure) -> Double {
        guard orientation.headingReference == .magnetic else { return orientation.heading }
        guard let time = reading.time else {
            throw LocateResult.Failure(code: .badInput, message: "time is required with a magnetic heading")
        }
        do {
            return try magneticModel.magneticToTrue(heading: orientation.heading, latitude: observer.latitude,
                                                    longitude: observer.longitude, height: observer.altitude, date: time)
        } catch {
            throw LocateResult.Failure(code: .magneticModel, message: error.message)
        }
    }

    /// A reading as it is located after calibration: its own calibration when it carries
    /// skyline or landmark pixels, else `carried` (a calibration of an earlier reading, whose
    /// correction is added to this reading's orientation). The returned reading's orientation
    /// is the corrected one, from true north, with the calibration's sigma as its accuracies,
    /// and without the calibration pixels; a refused calibration leaves the reading as it was
    /// and says why in `warnings`.
    func calibrated(_ reading: Reading, carried: Calibration?,
                    terrain: inout TerrainSampler) -> (reading: Reading, calibration: Calibration?, warnings: [Warning]) {
        var calibration = carried
        var warnings: [Warning] = []
        if reading.canCalibrate, reading.orientation != nil {
            do {
                calibration = try calibrate(reading, jobs: 1, terrain: &terrain)
            } catch {
                calibration = nil
                warnings.append(Warning(.calibrationRefused, "calibration refused: \(error.message); the sensors' orientation is used as given"))
            }
        }
        var r = reading
        r.skyline = []
        r.landmarks = []
        r.unknownFields = []   // said once, by the caller
        guard let calibration, var o = r.orientation else { return (r, nil, warnings) }
        let heading: Double
        do throws(MagneticModelError) {
            heading = try reading.trueHeading(using: magneticModel) ?? o.heading
        } catch {
            return (r, nil, warnings)   // locating the reading reports the same problem
        }
        o.heading = normalizedAzimuth(heading + calibration.correction.heading)
        o.headingReference = .true
        o.pitch = min(max(o.pitch + calibration.correction.pitch, -90), 90)
        o.roll += calibration.correction.roll
        o.headingAccuracy = calibration.sigma
        o.pitchAccuracy = calibration.sigma
        o.rollAccuracy = calibration.sigma
        r.orientation = o
        warnings += calibration.warnings.map { Warning($0.code, "calibration: \($0.message)") }
        return (r, calibration, warnings)
    }
}
