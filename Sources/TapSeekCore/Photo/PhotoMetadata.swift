import Foundation

/// What a photo file says about where and how it was taken: its EXIF (JPEG APP1, HEIF `Exif`
/// item) and XMP (DJI drones' gimbal, Google's photo-sphere pose), read in pure Swift from the
/// file's bytes, with every offset and count bounded.
///
/// Sizes and pixels are those of the image **as displayed**, after its EXIF Orientation (JPEG)
/// or its `irot`/`imir` transforms (HEIF, whose EXIF Orientation only repeats them).
public struct PhotoMetadata: Sendable, Hashable {
    /// The container.
    public enum Format: String, Sendable, Hashable, Codable { case jpeg, heif }

    public var format: Format
    /// The displayed image size, pixels.
    public var width: Int
    public var height: Int
    /// How the stored pixels turn into the displayed ones.
    public var orientation: ImageOrientation
    public var make: String?
    public var model: String?

    /// WGS84 degrees (EXIF GPS); nil when the photo carries no position.
    public var latitude: Double?
    public var longitude: Double?
    /// Metres above mean sea level: DJI's AbsoluteAltitude, else EXIF GPSAltitude.
    public var altitude: Double?
    public var altitudeSource: PhotoValueSource?
    /// Where the optical axis pointed, degrees clockwise from ``headingReference`` north: DJI's
    /// gimbal yaw or GPano's pose heading (XMP), else GPSImgDirection, else GPSDestBearing.
    public var heading: Double?
    public var headingReference: Reading.HeadingReference?
    public var headingSource: PhotoValueSource?
    /// Degrees, from XMP only (EXIF has no pitch or roll).
    public var pitch: Double?
    public var roll: Double?
    /// When the photo was taken, UTC: DateTimeOriginal with OffsetTimeOriginal, else the GPS date
    /// and time, else DateTimeOriginal as if UTC (then ``timeIsLocal``).
    public var time: Date?
    /// The time is the camera's local clock without a known offset (hours off UTC, still the
    /// right date for the magnetic model to a day).
    public var timeIsLocal: Bool
    /// Degrees across the displayed image's width (see ``FieldOfView``).
    public var horizontalFOV: Double?
    /// The EXIF focal length in 35 mm film, millimetres, when given.
    public var focalLengthIn35mmFilm: Double?

    /// Largest image side accepted, pixels: a 100 000-pixel header is refused before anything is
    /// allocated for it.
    public static let maximumSide = 65_535
    /// Largest image accepted, pixels (about 200 MP, beyond any phone's sensor).
    public static let maximumPixels = 200_000_000

    /// Whether `bytes` start like a photo this type reads (JPEG, or HEIF by its `ftyp` brand).
    public static func isPhoto(_ bytes: ArraySlice<UInt8>) -> Bool {
        JPEGSegments.isJPEG(bytes) || HEIFContainer.isHEIF(bytes)
    }

    /// Reads a photo's metadata from its bytes.
    /// - Throws: ``PhotoMetadataError`` for a file that is not a JPEG or HEIF, is truncated or
    ///   damaged where its size is, or states an image larger than ``maximumSide``.
    public init(bytes: ArraySlice<UInt8>) throws(PhotoMetadataError) {
        var exifBlock: ArraySlice<UInt8>?, xmpBlock: ArraySlice<UInt8>?
        let storedWidth: Int, storedHeight: Int, transform: Int?
        if JPEGSegments.isJPEG(bytes) {
            let jpeg = try JPEGSegments(bytes)
            format = .jpeg
            (exifBlock, xmpBlock, storedWidth, storedHeight, transform) = (jpeg.exif, jpeg.xmp, jpeg.width, jpeg.height, nil)
        } else if HEIFContainer.isHEIF(bytes) {
            let heif = try HEIFContainer(bytes)
            format = .heif
            (exifBlock, xmpBlock, storedWidth, storedHeight, transform) = (heif.exif, heif.xmp, heif.storedWidth, heif.storedHeight, heif.orientation)
        } else {
            throw .notAPhoto
        }
        guard storedWidth <= Self.maximumSide, storedHeight <= Self.maximumSide, storedWidth * storedHeight <= Self.maximumPixels else {
            throw .malformed("the image claims \(storedWidth)×\(storedHeight) pixels, more than the \(Self.maximumSide)-pixel sides and \(Self.maximumPixels / 1_000_000) MP read")
        }
        // A damaged EXIF block loses its fields, not the photo: the pixels may still be read.
        let exif = exifBlock.flatMap { try? ExifFields(tiff: $0) }
        let xmp = xmpBlock.map(XMPFields.init(packet:))
        orientation = ImageOrientation(exifValue: transform ?? exif?.orientation ?? 1)
        (width, height) = orientation.displayedSize(width: storedWidth, height: storedHeight)
        make = exif?.make
        model = exif?.model

        if let lat = exif?.latitude, let lon = exif?.longitude, abs(lat) <= 90, abs(lon) <= 180, !(lat == 0 && lon == 0) {
            latitude = lat
            longitude = lon
        }
        if let a = xmp?.absoluteAltitude {
            (altitude, altitudeSource) = (a, .xmp)
        } else if let a = exif?.altitude {
            (altitude, altitudeSource) = (a, .exif)
        }
        if let yaw = xmp?.gimbalYaw ?? xmp?.poseHeading {
            (heading, headingReference, headingSource) = (normalizedAzimuth(yaw), .true, .xmp)
        } else if let d = exif?.imageDirection ?? exif?.destinationBearing {
            let reference = exif?.imageDirection != nil ? exif?.imageDirectionReference : exif?.destinationBearingReference
            (heading, headingReference, headingSource) = (normalizedAzimuth(d), reference == "M" ? .magnetic : .true, .exif)
        }
        pitch = xmp?.gimbalPitch ?? xmp?.posePitch
        roll = xmp?.gimbalRoll ?? xmp?.poseRoll
        (time, timeIsLocal) = Self.time(exif)
        focalLengthIn35mmFilm = exif?.focalLengthIn35mmFilm
        horizontalFOV = exif.flatMap { FieldOfView.horizontal(of: $0, displayedWidth: width, displayedHeight: height, transposed: orientation.transposed) }
    }

    /// The photo's time in UTC from its EXIF, and whether it is a local clock taken as UTC.
    static func time(_ exif: ExifFields?) -> (Date?, Bool) {
        guard let exif else { return (nil, false) }
        let local = exif.dateTimeOriginal.flatMap(civilSeconds)
        if let local, let offset = exif.offsetTimeOriginal.flatMap(offsetSeconds) {
            return (Date(timeIntervalSince1970: local - offset), false)
        }
        if let date = exif.gpsDate.flatMap({ civilSeconds($0 + " 00:00:00") }), let t = exif.gpsTime,
           (0..<24).contains(t[0]), (0..<60).contains(t[1]), t[2] >= 0, t[2] < 61 {
            return (Date(timeIntervalSince1970: date + t[0] * 3600 + t[1] * 60 + t[2]), false)
        }
        if let local { return (Date(timeIntervalSince1970: local), true) }
        return (nil, false)
    }

    /// Seconds since 1970 of "YYYY:MM:DD HH:MM:SS" read as UTC; nil when malformed.
    static func civilSeconds(_ text: String) -> Double? {
        let parts = text.split(whereSeparator: { $0 == ":" || $0 == " " || $0 == "-" }).map { Int($0) }
        guard parts.count >= 6, let y = parts[0], let mo = parts[1], let d = parts[2], let h = parts[3], let mi = parts[4],
              let s = parts[5], (1900...2200).contains(y), (1...12).contains(mo), d >= 1, d <= UTCCalendar.daysInMonth(mo, year: y),
              (0..<24).contains(h), (0..<60).contains(mi), (0...60).contains(s) else { return nil }
        return Double(UTCCalendar.daysSinceUnixEpoch(year: y, month: mo, day: d)) * UTCCalendar.secondsPerDay + Double(h * 3600 + mi * 60 + s)
    }

    /// Seconds east of UTC of "+HH:MM" / "-HH:MM"; nil when malformed.
    static func offsetSeconds(_ text: String) -> Double? {
        let u = Array(text.utf8)
        guard u.count == 6, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-"), u[3] == UInt8(ascii: ":"),
              let h = Int(String(decoding: u[1..<3], as: UTF8.self)), let m = Int(String(decoding: u[4..<6], as: UTF8.self)),
              h <= 14, m < 60 else { return nil }
        let seconds = Double(h * 3600 + m * 60)
        return u[0] == UInt8(ascii: "-") ? -seconds : seconds
    }
}

/// Where a value of a photo's reading came from, as `tapseek photo`'s `sources` says it.
public enum PhotoValueSource: String, Sendable, Hashable, Codable {
    case exif, xmp, option, skyline, `default`
}

/// Why a photo's metadata cannot be read.
public enum PhotoMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Neither a JPEG nor a HEIF file by its first bytes.
    case notAPhoto
    /// A JPEG or HEIF file that is truncated, damaged, or states impossible sizes.
    case malformed(String)

    public var description: String {
        switch self {
        case .notAPhoto: "not a JPEG or HEIF photo (by its first bytes)"
        case .malformed(let message): message
        }
    }
}
