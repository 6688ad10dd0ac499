import Foundation

/// Values that override (or fill in) what a photo's metadata says, as `tapseek photo`'s options
/// give them; nil keeps the file's.
public struct PhotoOverrides: Sendable, Hashable {
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above mean sea level.
    public var altitude: Double?
    public var heading: Double?
    public var headingReference: Reading.HeadingReference?
    public var pitch: Double?
    public var roll: Double?
    /// Degrees across the displayed image's width.
    public var horizontalFOV: Double?
    /// Degrees of heading searched on either side of the given heading (default
    /// ``PhotoOrientationFit/Limits/compassHeading``); 180 or more searches all around.
    public var headingSearch: Double?

    public init(latitude: Double? = nil, longitude: Double? = nil, altitude: Double? = nil, heading: Double? = nil,
                headingReference: Reading.HeadingReference? = nil, pitch: Double? = nil, roll: Double? = nil,
                horizontalFOV: Double? = nil, headingSearch: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.heading = heading
        self.headingReference = headingReference
        self.pitch = pitch
        self.roll = roll
        self.horizontalFOV = horizontalFOV
        self.headingSearch = headingSearch
    }
}

extension Locator {
    /// Answers a photo: its reading from `metadata` and `overrides`, the skyline found in
    /// `pixels` (the displayed image at any size, e.g. a camera frame; nil: none), the camera's
    /// orientation fitted to the DEM's skyline (``PhotoOrientationFit``), a locate result per tap
    /// (pixels of the displayed full-size image) and the DEM skyline's peaks inside the image.
    ///
    /// Never throws: a photo that cannot be answered gives status `error` with what its metadata
    /// said; a fit that cannot be trusted gives `uncalibrated` with a warning saying why.
    ///
    /// With `uncertainty`, each tap also says how far to trust its target
    /// (``TargetUncertainty``): a calibrated photo's heading, pitch and roll are sampled with the
    /// fit's own covariance, correlations included, in place of the sensors' accuracies.
    public func photo(_ metadata: PhotoMetadata, pixels: PixelImage?, overrides: PhotoOverrides = PhotoOverrides(),
                      taps: [Reading.Pixel] = [], uncertainty: TargetUncertainty.Settings? = nil,
                      jobs: Int = ProcessInfo.processInfo.activeProcessorCount) -> PhotoResult {
        var warnings: [Warning] = []
        let (reading, sources) = Self.photoReading(metadata, overrides: overrides, warnings: &warnings)
        guard let reading else {
            return .failure(.badInput, "the photo has no GPS position (EXIF GPSLatitude/GPSLongitude): give --location", sources: sources,
                            warnings: warnings)
        }
        guard let cameraSettings = reading.camera else {
            return .failure(.badInput, "the photo gives no field of view (EXIF FocalLengthIn35mmFilm, or FocalLength with the focal-plane resolution): give --fov",
                            reading: reading, sources: sources, warnings: warnings)
        }
        let camera = PinholeCamera(cameraSettings)
        var terrain = TerrainSampler(catalog: catalog)
        let observer: LocateResult.Observer
        do {
            observer = try place(reading.location, terrain: &terrain, warnings: &warnings)
        } catch {
            return .failure(error.code, error.message, reading: reading, sources: sources, warnings: warnings)
        }
        let eye = eye(of: observer)

        // The orientation to start from: heading from true north, when known.
        var heading: Double?
        if let o = reading.orientation {
            do {
                heading = try trueHeading(of: reading, orientation: o, observer: observer)
            } catch {
                warnings.append(Warning(.photoIncomplete, "the photo's magnetic heading cannot be turned to true north (\(error.message)): all 360° are searched"))
            }
        }
        let given = CameraOrientation(heading: heading ?? 0, pitch: reading.orientation?.pitch ?? 0, roll: reading.orientation?.roll ?? 0)
        let limits = PhotoOrientationFit.Limits(
            heading: heading == nil || (overrides.headingSearch ?? 0) >= 180 ? nil : overrides.headingSearch ?? PhotoOrientationFit.Limits.compassHeading,
            pitch: sources.pitch == .default ? PhotoOrientationFit.Limits.unknownPitch : PhotoOrientationFit.Limits.givenTilt,
            roll: sources.roll == .default ? PhotoOrientationFit.Limits.unknownRoll : PhotoOrientationFit.Limits.givenTilt)

        // The skyline in the pixels.
        var skyline: PhotoResult.Skyline?
        var detected: [Reading.Pixel] = []
        var crestTops: [Reading.Pixel] = []
        if let pixels {
            let found = SkylineDetector.detect(in: pixels, fullWidth: Int(cameraSettings.imageWidth), fullHeight: Int(cameraSettings.imageHeight))
            detected = found.points.map { Reading.Pixel(x: $0.x, y: $0.y) }
            crestTops = found.crestTops.map { Reading.Pixel(x: $0.x, y: $0.y) }
            skyline = PhotoResult.Skyline(points: detected, confidence: found.points.map(\.confidence), coverage: found.coverage)
        }

        // The DEM's skyline over every azimuth the search may bring into view.
        let box = OrientationFit.Limits(heading: limits.heading ?? 180, pitch: limits.pitch, roll: limits.roll)
        let border = Self.imageBorder(camera)
        let window = OrientationFit.azimuthWindow(given: given, camera: camera, skyline: border, limits: box)
        let points = skylinePoints(from: eye, azimuths: window, jobs: jobs, terrain: &terrain)
        let skylineTarget = FitTarget(points, nearer: false)
        let profile = skylineTarget.profile

        var result = PhotoResult(status: .uncalibrated, reading: reading, sources: sources, skyline: skyline)
        var final = reading
        if detected.isEmpty {
            let coverage = skyline.map { String(format: " (%.0f%% of the columns)", $0.coverage * 100) } ?? ""
            warnings.append(Warning(.noSkyline, pixels == nil ? "the photo's pixels were not read: no skyline to fit"
                                                               : "no skyline found in the photo\(coverage): fog, cloud or no sky in view; the orientation is the file's"))
        } else {
            // The fit against one silhouette of the DEM.
            func resolved(_ target: FitTarget) throws(CalibrationError) -> PhotoOrientationFit.Fit {
                func fit(_ points: [Reading.Pixel]) throws(CalibrationError) -> PhotoOrientationFit.Fit {
                    try PhotoOrientationFit.fit(given: given, camera: camera, points: points, profile: target.profile,
                                                lowerBounds: target.lowerBounds, distances: target.distances, limits: limits)
                }
                return try Self.resolveWhiteCrests(Result { () throws(CalibrationError) in try fit(detected) }, crestTops: crestTops,
                                                   detected: detected, imageWidth: camera.imageWidth) { try? fit($0) }
            }
            do throws(CalibrationError) {
                let fit: PhotoOrientationFit.Fit
                do throws(CalibrationError) {
                    fit = try resolved(skylineTarget)
                } catch {
                    // Haze may hide the far ridges: the photo's skyline is then the silhouette of
                    // the nearer terrain alone, and every silhouette of terrain nearer still lies
                    // at or below it (a lower bound at every azimuth). Only around a compass's
                    // heading: all around, three more silhouettes are three more chances of a
                    // chance match (two of 640 photos from elsewhere matched one so, imprecisely),
                    // and cost more than the whole photo.
                    let farthest = points.filter { $0.elevationAngle != nil }.map(\.distance).max() ?? 0
                    var nearer: (fit: PhotoOrientationFit.Fit, range: Double)?
                    for range in Self.hazeRanges where range < farthest && limits.heading != nil {
                        let near = skylinePoints(from: eye, azimuths: window, jobs: jobs, range: range, terrain: &terrain)
                        // A second look must be sure: an imprecise fit (a turn of a degree or two
                        // still fits) is how a skyline from elsewhere matches a silhouette by chance.
                        if let f = try? resolved(FitTarget(near, nearer: true)), f.imprecise == nil {
                            nearer = (f, range)
                            break
                        }
                    }
                    guard let nearer else { throw error }
                    fit = nearer.fit
                    warnings.append(Warning(.other, String(format: "the DEM's skyline fits nowhere, but the silhouette of the terrain within %.0f km does: haze hides the ridges beyond, and the orientation was fitted to that silhouette",
                                                           nearer.range / 1000)))
                }
                result.status = .calibrated
                result.calibration = fit.calibration
                if let sigma = fit.imprecise {
                    warnings.append(Warning(.calibrationImprecise, String(format: "the calibration is unambiguous but imprecise: heading ±%.2f° (1σ); its covariance is carried into the taps", sigma)))
                }
                let c = fit.calibration
                final.orientation = Reading.Orientation(heading: c.heading, headingReference: .true, pitch: c.pitch, roll: c.roll,
                                                        headingAccuracy: c.covariance.map { $0[0][0].squareRoot() } ?? c.sigma,
                                                        pitchAccuracy: c.covariance.map { $0[1][1].squareRoot() } ?? c.sigma,
                                                        rollAccuracy: c.covariance.map { $0[2][2].squareRoot() } ?? c.sigma)
                result.sources?.heading = .skyline
                result.sources?.pitch = .skyline
                result.sources?.roll = .skyline
            } catch {
                warnings.append(Warning(.calibrationRefused, "calibration refused: \(error.message); the orientation is the file's"))
            }
        }
        if heading == nil, result.status != .calibrated {
            final.orientation = nil
            result.sources?.heading = nil
            result.sources?.pitch = nil
            result.sources?.roll = nil
        }
        result.reading = final
        result.tapPixels = taps

        // Taps, peaks and the DEM skyline under the final orientation.
        if let o = final.orientation {
            let view = CameraOrientation(heading: o.headingReference == .true ? o.heading : heading ?? o.heading, pitch: o.pitch, roll: o.roll)
            for tap in taps {
                var r = final
                r.tap = tap
                if o.headingReference == .magnetic, let heading { r.orientation = .init(heading: heading, pitch: o.pitch, roll: o.roll) }
                if let uncertainty {
                    result.taps.append(locate(r, uncertainty: uncertainty, carrying: nil, orientationCovariance: result.calibration?.covariance, jobs: jobs))
                } else {
                    result.taps.append(locate(r, terrain: &terrain))
                }
            }
            for (i, p) in points.enumerated() {
                guard let angle = p.elevationAngle else { continue }
                let direction = ViewDirection(azimuth: profile.startAzimuth + Double(i) * profile.step, elevation: angle)
                if let pixel = view.pixel(of: direction.enu, camera: camera), camera.contains(pixelX: pixel.x, y: pixel.y) {
                    result.demSkyline.append(.init(x: pixel.x, y: pixel.y))
                }
            }
            for peak in Panorama.peaks(of: points) {
                let direction = ViewDirection(azimuth: peak.azimuth, elevation: peak.elevationAngle)
                guard let pixel = view.pixel(of: direction.enu, camera: camera), camera.contains(pixelX: pixel.x, y: pixel.y) else { continue }
                let feature = names?.summit(latitude: peak.latitude, longitude: peak.longitude, elevation: peak.elevation, terrain: &terrain)
                result.peaks.append(.init(latitude: peak.latitude, longitude: peak.longitude, elevation: peak.elevation, distance: peak.distance,
                                          pixel: .init(x: pixel.x, y: pixel.y), prominence: peak.prominence,
                                          name: feature?.name, nameKind: feature?.featureCode))
            }
        } else if !taps.isEmpty {
            let failure = LocateResult.Failure(code: .badInput, message: "the photo gives no heading and its skyline could not be fitted: give --heading")
            result.taps = taps.map { _ in .failure(failure, id: nil, time: reading.time) }
        }
        result.warnings = warnings
        return result
    }

    /// Points around the image's border, every tenth of its sides: the azimuths it spans.
    static func imageBorder(_ camera: PinholeCamera) -> [Reading.Pixel] {
        let w = camera.imageWidth, h = camera.imageHeight
        return (0...10).flatMap { i -> [Reading.Pixel] in
            let f = Double(i) / 10
            return [.init(x: f * w, y: 0), .init(x: f * w, y: h), .init(x: 0, y: f * h), .init(x: w, y: f * h)]
        }
    }

    /// The reading a photo's metadata and the overrides make, and where each value came from;
    /// nil without a position.
    static func photoReading(_ m: PhotoMetadata, overrides o: PhotoOverrides,
                             warnings: inout [Warning]) -> (Reading?, PhotoResult.Sources) {
        var sources = PhotoResult.Sources()
        func pick<T>(_ option: T?, _ file: T?, _ fileSource: PhotoValueSource?, _ keyPath: WritableKeyPath<PhotoResult.Sources, PhotoValueSource?>) -> T? {
            if let option {
                sources[keyPath: keyPath] = .option
                return option
            }
            if file != nil { sources[keyPath: keyPath] = fileSource }
            return file
        }
        let latitude = pick(o.latitude, m.latitude, .exif, \.location)
        let longitude = o.longitude ?? m.longitude
        let altitude = pick(o.altitude, m.altitude, m.altitudeSource, \.altitude)
        let heading = pick(o.heading, m.heading, m.headingSource, \.heading)
        let pitch = pick(o.pitch, m.pitch, .xmp, \.pitch)
        let roll = pick(o.roll, m.roll, .xmp, \.roll)
        let fov = pick(o.horizontalFOV, m.horizontalFOV, .exif, \.horizontalFOV)
        if m.time != nil { sources.time = .exif }
        if m.timeIsLocal {
            warnings.append(Warning(.localTime, "the photo's time has no offset to UTC: its local clock is taken as UTC (the date is what the magnetic model needs)"))
        }
        if heading == nil {
            warnings.append(Warning(.photoIncomplete, "the photo gives no compass direction (EXIF GPSImgDirection): all 360° of heading are searched"))
        }
        if pitch == nil { sources.pitch = .default }
        if roll == nil { sources.roll = .default }
        guard let latitude, let longitude else { return (nil, sources) }
        var reading = Reading(time: m.time, location: .init(latitude: latitude, longitude: longitude, altitude: altitude))
        if let heading {
            reading.orientation = .init(heading: heading, headingReference: o.heading != nil ? (o.headingReference ?? .true) : (m.headingReference ?? .true),
                                        pitch: pitch ?? 0, roll: roll ?? 0)
        }
        if let fov {
            reading.camera = .init(horizontalFOV: fov, imageWidth: Double(m.width), imageHeight: Double(m.height))
        }
        return (reading, sources)
    }
}

/// A silhouette of the DEM as a photo's skyline is fitted to it (``PhotoOrientationFit``), over
/// the window's azimuths every ``Locator/calibrationAzimuthStep``.
struct FitTarget {
    /// The angles matched: where the search settled the silhouette.
    let profile: SkylineProfile
    /// Angles the photo's skyline cannot lie below (NaN elsewhere).
    let lowerBounds: SkylineProfile
    /// The settled silhouette's distance, metres.
    let distances: SkylineProfile

    /// The DEM's skyline from `points` (`nearer` false): an unsettled point (the DEM ended
    /// first) is only a lower bound. The silhouette of the terrain within a range (`nearer`):
    /// a point the range cut through a slope is not matched either, and every point is a lower
    /// bound, as terrain beyond can only show above it.
    init(_ points: [Panorama.Point], nearer: Bool) {
        let step = Locator.calibrationAzimuthStep, start = points.first?.azimuth ?? 0
        let settled = points.map { $0.complete && $0.elevationAngle != nil && !(nearer && $0.atRangeLimit) }
        profile = SkylineProfile(startAzimuth: start, step: step, angles: zip(points, settled).map { $1 ? $0.elevationAngle! : .nan })
        lowerBounds = SkylineProfile(startAzimuth: start, step: step,
                                     angles: points.map { nearer || !$0.complete ? $0.elevationAngle ?? .nan : .nan })
        distances = SkylineProfile(startAzimuth: start, step: step, angles: zip(points, settled).map { $1 ? $0.distance : .nan })
    }
}

extension Locator {
    /// Most a fit with the white crests' tops may differ from the fit with their feet, degrees
    /// of heading, pitch or roll, for the photo to be calibrated: within it the crests change
    /// nothing that matters.
    static let crestAgreement = 0.2
    /// Distances (metres), farthest first, within which the terrain's silhouette is fitted when
    /// the DEM's skyline fits nowhere: haze fades ridges into the sky with distance, and what a
    /// hazy photo shows as its skyline is the silhouette of the terrain it still shows.
    static let hazeRanges = [16_000.0, 8_000, 4_000]
    /// The share of the skyline's columns under white crests from which the crests' tops must
    /// fit too, and agree, for the photo to be calibrated.
    static let crestShare = 0.2
    /// Widest gap between white crests, as a share of the image's width, across which the band
    /// is taken to go on: a column of it can be missed where the boundary strays a few rows
    /// below the snow's lower edge onto rock.
    static let crestGap = 0.015

    /// The detected skyline with each point under a white crest moved up to the crest's top, and
    /// each point in a gap of at most `gap` pixels between two crests moved up to the line
    /// between their tops (never down). A skyline left half on the snow's foot would put the
    /// tops' fit below the DEM's lower bounds and misfit in the gaps.
    static func raisedToCrests(_ detected: [Reading.Pixel], crestTops: [Reading.Pixel], gap: Double) -> [Reading.Pixel] {
        let tops = crestTops.sorted { $0.x < $1.x }
        return detected.map { p in
            let next = tops.firstIndex { $0.x >= p.x } ?? tops.count
            if next < tops.count, tops[next].x == p.x { return Reading.Pixel(x: p.x, y: tops[next].y) }
            guard next > 0, next < tops.count else { return p }
            let left = tops[next - 1], right = tops[next]
            guard right.x - left.x <= gap else { return p }
            let y = left.y + (right.y - left.y) * (p.x - left.x) / (right.x - left.x)
            return Reading.Pixel(x: p.x, y: min(p.y, y))
        }
    }

    /// The fit a white band on the crests leaves, or a refusal where it makes the fit ambiguous.
    /// Under such a band (``SkylineDetector/Result/crestTops``) the detected skyline is its foot:
    /// right if the band is a cloud on the ridge, a uniform fraction of a degree to a few degrees
    /// too low if it is snow, which a fit takes for a steeper pitch. The photo is fitted again
    /// with the bands' tops (`refit`). The fit with the feet stands when that fit agrees, or
    /// fails while the bands cover less than ``crestShare`` of the columns. When both fit and
    /// disagree, the skyline is the topmost boundary the DEM supports: the tops' fit is the
    /// answer when it matches as many points at least as closely (a cloud's top rarely follows
    /// a ridge's ups and downs as its foot does); otherwise which is right is unknown. When the
    /// feet (`feet`) fit nowhere, the tops' fit is the answer if there is one; else the feet's
    /// refusal stands.
    static func resolveWhiteCrests(_ feet: Result<PhotoOrientationFit.Fit, CalibrationError>, crestTops: [Reading.Pixel], detected: [Reading.Pixel],
                                   imageWidth: Double, refit: ([Reading.Pixel]) -> PhotoOrientationFit.Fit?) throws(CalibrationError) -> PhotoOrientationFit.Fit {
        guard !crestTops.isEmpty, !detected.isEmpty else { return try feet.get() }
        let raised = raisedToCrests(detected, crestTops: crestTops, gap: crestGap * imageWidth)
        // Snow's foot, a uniform 1–2° under the skyline, can leave the rest too little to fit, or
        // a featureless rest whose heading it cannot fix: then the tops alone may settle the photo,
        // through every check a fit passes. A cloud's top, which follows no ridge, does not.
        let fit: PhotoOrientationFit.Fit
        switch feet {
        case .success(let found): fit = found
        case .failure(let refusal):
            guard let tops = refit(raised) else { throw refusal }
            return tops
        }
        let share = Double(crestTops.count) / Double(detected.count)
        let band = String(format: "a white band on the crests over %.0f%% of the skyline may be snow (the skyline at its top) or a cloud's foot (at its bottom)", 100 * share)
        guard let other = refit(raised) else {
            if share < crestShare { return fit }
            throw .noFit(band + ", and only its foot fits the DEM")
        }
        let a = fit.calibration, b = other.calibration
        let apart = max(abs(remainder(a.heading - b.heading, 360)), abs(a.pitch - b.pitch), abs(a.roll - b.roll))
        guard apart > crestAgreement else { return fit }
        if b.matched >= a.matched, b.residual <= a.residual { return other }
        throw .noFit(band + String(format: ", and the two fit %.1f° apart, the foot more closely (foot: %d points, %.3f° rms; top: %d points, %.3f° rms)",
                                   apart, a.matched, a.residual, b.matched, b.residual))
    }
}
