import Foundation

/// One sensor reading: where the phone was, where its camera pointed, and which pixel was tapped.
/// The fields mirror the reading JSON of the public interface (docs in README); angles in degrees.
public struct Reading: Sendable, Hashable {
    /// Echoed back in the result.
    public var id: String?
    /// When the reading was taken (UTC). Needed for magnetic headings.
    public var time: Date?
    /// Where the phone was.
    public var location: Location
    /// Absent for location-only records (a log without attitude).
    public var orientation: Orientation?
    /// The camera's field of view and image size; needed to turn a tapped pixel into a ray.
    public var camera: CameraSettings?
    /// Absent → the optical axis.
    public var tap: Tap?
    /// Pixels of the same image that lie on the skyline (traced by a finger or found by an edge
    /// detector), for calibrating the orientation; empty when none were given.
    public var skyline: [Pixel]
    /// Pixels of the same image showing known places, for calibrating the orientation.
    public var landmarks: [Landmark]
    /// Members of the reading's JSON that the interface does not define, by path, e.g.
    /// `orientation.headingRef (did you mean orientation.headingReference?)`: skipped, and
    /// reported as a warning.
    public var unknownFields: [String] = []

    /// A reading from its parts; ``ReadingDecoder`` builds validated ones from JSON.
    public init(id: String? = nil, time: Date? = nil, location: Location, orientation: Orientation? = nil,
                camera: CameraSettings? = nil, tap: Tap? = nil, skyline: [Pixel] = [], landmarks: [Landmark] = []) {
        self.id = id
        self.time = time
        self.location = location
        self.orientation = orientation
        self.camera = camera
        self.tap = tap
        self.skyline = skyline
        self.landmarks = landmarks
    }

    /// Whether the reading carries what a calibration needs: skyline pixels or landmarks.
    public var canCalibrate: Bool { !skyline.isEmpty || !landmarks.isEmpty }

    /// Which surface an altitude is measured from.
    public enum AltitudeReference: String, Sendable, Hashable, CaseIterable {
        /// Mean sea level, EGM96 (iOS `altitude`, SRTM). The default.
        case msl
        /// The WGS84 ellipsoid (Android, W3C, GPS receivers).
        case ellipsoid
    }

    /// Which north a heading is measured from.
    public enum HeadingReference: String, Sendable, Hashable, CaseIterable {
        /// Geographic (true) north, the default.
        case `true`
        /// Magnetic north; turned into true north with the World Magnetic Model at the reading's time.
        case magnetic
    }

    /// The phone's position.
    public struct Location: Sendable, Hashable {
        /// WGS84 degrees, −90…90.
        public var latitude: Double
        /// WGS84 degrees, −180…180.
        public var longitude: Double
        /// Metres above ``altitudeReference``; nil → the observer stands on the terrain at ``eyeHeight``.
        public var altitude: Double?
        /// The surface ``altitude`` is measured from.
        public var altitudeReference: AltitudeReference
        /// 1-sigma, metres.
        public var horizontalAccuracy: Double?
        /// 1-sigma, metres.
        public var verticalAccuracy: Double?
        /// Metres above ground when the altitude is absent or below the terrain.
        public var eyeHeight: Double

        /// Eye height of a standing person, metres.
        public static let defaultEyeHeight = 1.6

        /// A position; angles in degrees, lengths in metres.
        public init(latitude: Double, longitude: Double, altitude: Double? = nil,
                    altitudeReference: AltitudeReference = .msl, horizontalAccuracy: Double? = nil,
                    verticalAccuracy: Double? = nil, eyeHeight: Double = Location.defaultEyeHeight) {
            self.latitude = latitude
            self.longitude = longitude
            self.altitude = altitude
            self.altitudeReference = altitudeReference
            self.horizontalAccuracy = horizontalAccuracy
            self.verticalAccuracy = verticalAccuracy
            self.eyeHeight = eyeHeight
        }
    }

    /// Where the camera's optical axis pointed.
    public struct Orientation: Sendable, Hashable {
        /// Azimuth of the optical axis, degrees clockwise from ``headingReference`` north.
        public var heading: Double
        /// Which north ``heading`` is measured from.
        public var headingReference: HeadingReference
        /// Elevation of the optical axis, degrees, positive up, −90…90.
        public var pitch: Double
        /// Degrees about the optical axis; positive = the image's right edge tips down.
        public var roll: Double
        /// 1-sigma, degrees.
        public var headingAccuracy: Double?
        /// 1-sigma, degrees.
        public var pitchAccuracy: Double?
        /// 1-sigma, degrees.
        public var rollAccuracy: Double?

        /// An orientation; angles in degrees.
        public init(heading: Double, headingReference: HeadingReference = .true, pitch: Double, roll: Double = 0,
                    headingAccuracy: Double? = nil, pitchAccuracy: Double? = nil, rollAccuracy: Double? = nil) {
            self.heading = heading
            self.headingReference = headingReference
            self.pitch = pitch
            self.roll = roll
            self.headingAccuracy = headingAccuracy
            self.pitchAccuracy = pitchAccuracy
            self.rollAccuracy = rollAccuracy
        }
    }

    /// The camera's field of view and image size (see ``PinholeCamera``).
    public struct CameraSettings: Sendable, Hashable {
        /// Degrees across the image width at zoom 1.
        public var horizontalFOV: Double
        /// ≥ 1.
        public var zoom: Double
        /// Pixels across the image.
        public var imageWidth: Double
        /// Pixels down the image.
        public var imageHeight: Double

        /// Camera settings; the FOV in degrees, sizes in pixels.
        public init(horizontalFOV: Double, zoom: Double = 1, imageWidth: Double, imageHeight: Double) {
            self.horizontalFOV = horizontalFOV
            self.zoom = zoom
            self.imageWidth = imageWidth
            self.imageHeight = imageHeight
        }
    }

    /// A pixel of the image, as ``Tap`` counts it.
    public typealias Pixel = Tap

    /// A known place seen at a pixel of the image.
    public struct Landmark: Sendable, Hashable {
        /// The pixel, from the image's top-left corner, y down.
        public var x: Double
        public var y: Double
        /// WGS84 degrees.
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level; nil → the DEM's elevation there.
        public var elevation: Double?

        public init(x: Double, y: Double, latitude: Double, longitude: Double, elevation: Double? = nil) {
            self.x = x
            self.y = y
            self.latitude = latitude
            self.longitude = longitude
            self.elevation = elevation
        }
    }

    /// A pixel from the image's top-left corner, y down.
    public struct Tap: Sendable, Hashable {
        /// Pixels from the left edge, 0…imageWidth.
        public var x: Double
        /// Pixels from the top edge, down, 0…imageHeight.
        public var y: Double
        /// A tapped pixel.
        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }
}
