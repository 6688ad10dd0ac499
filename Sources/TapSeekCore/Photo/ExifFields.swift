/// The EXIF fields a photo's reading is made from, read out of its TIFF structure (EXIF 2.32,
/// CIPA DC-008-2019): IFD0 (orientation, camera), the EXIF sub-directory (time, focal length,
/// pixel size) and the GPS sub-directory (position, altitude, direction, UTC time).
///
/// Values are as the file states them; turning them into a reading (north reference, field of
/// view, orientation of the image) is ``PhotoMetadata``'s work.
struct ExifFields: Sendable, Hashable {
    var make: String?
    var model: String?
    /// EXIF Orientation, 1…8 (others are dropped).
    var orientation: Int?
    /// PixelXDimension and PixelYDimension (EXIF), else ImageWidth and ImageLength (IFD0).
    var pixelWidth: Int?
    var pixelHeight: Int?
    /// "YYYY:MM:DD HH:MM:SS" and "+HH:MM".
    var dateTimeOriginal: String?
    var offsetTimeOriginal: String?
    /// Millimetres.
    var focalLength: Double?
    var focalLengthIn35mmFilm: Double?
    /// Pixels per ``focalPlaneResolutionUnit`` on the sensor.
    var focalPlaneXResolution: Double?
    var focalPlaneYResolution: Double?
    /// Millimetres per unit of the focal-plane resolution (from the unit tag: inch, cm, mm, µm).
    var focalPlaneResolutionUnit: Double?
    /// Degrees, signed by their reference (S and W negative).
    var latitude: Double?
    var longitude: Double?
    /// Metres, signed by GPSAltitudeRef (1: below sea level).
    var altitude: Double?
    /// Degrees and "T" or "M".
    var imageDirection: Double?
    var imageDirectionReference: String?
    var destinationBearing: Double?
    var destinationBearingReference: String?
    /// "YYYY:MM:DD" and hours, minutes, seconds (UTC).
    var gpsDate: String?
    var gpsTime: [Double]?

    // Tags (EXIF 2.32, §4.6).
    private enum Tag {
        static let imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
        static let make: UInt16 = 0x010F, model: UInt16 = 0x0110, orientation: UInt16 = 0x0112
        static let exifIFD: UInt16 = 0x8769, gpsIFD: UInt16 = 0x8825
        static let dateTimeOriginal: UInt16 = 0x9003, offsetTimeOriginal: UInt16 = 0x9011
        static let focalLength: UInt16 = 0x920A, focalLength35: UInt16 = 0xA405
        static let pixelX: UInt16 = 0xA002, pixelY: UInt16 = 0xA003
        static let focalPlaneX: UInt16 = 0xA20E, focalPlaneY: UInt16 = 0xA20F, focalPlaneUnit: UInt16 = 0xA210
        static let gpsLatitudeRef: UInt16 = 0x01, gpsLatitude: UInt16 = 0x02
        static let gpsLongitudeRef: UInt16 = 0x03, gpsLongitude: UInt16 = 0x04
        static let gpsAltitudeRef: UInt16 = 0x05, gpsAltitude: UInt16 = 0x06
        static let gpsTimeStamp: UInt16 = 0x07, gpsDateStamp: UInt16 = 0x1D
        static let gpsImgDirectionRef: UInt16 = 0x10, gpsImgDirection: UInt16 = 0x11
        static let gpsDestBearingRef: UInt16 = 0x17, gpsDestBearing: UInt16 = 0x18
    }

    /// Reads the fields of a TIFF structure (what follows "Exif\0\0" in a JPEG's APP1 segment or
    /// a HEIF Exif item). A sub-directory that cannot be read leaves its fields out.
    /// - Throws: ``PhotoMetadataError`` when the header or IFD0 itself is unreadable.
    init(tiff data: ArraySlice<UInt8>) throws(PhotoMetadataError) {
        let header: TIFFHeader, ifd0: TIFFDirectory<ArraySlice<UInt8>>
        do {
            header = try TIFFHeader(of: data)
            ifd0 = try TIFFDirectory(data: data, header: header, offset: header.firstDirectory)
        } catch {
            throw .malformed("the EXIF block's TIFF structure is unreadable: \(error.reason)")
        }
        let first = header.firstDirectory
        make = ifd0.text(Tag.make)
        model = ifd0.text(Tag.model)
        orientation = ifd0.integer(Tag.orientation).flatMap { (1...8).contains($0) ? $0 : nil }
        pixelWidth = ifd0.integer(Tag.imageWidth)
        pixelHeight = ifd0.integer(Tag.imageLength)
        // Each sub-directory once, and never IFD0 again: a loop of offsets ends here.
        var visited: Set<Int> = [first]
        func sub(_ tag: UInt16) -> TIFFDirectory<ArraySlice<UInt8>>? {
            guard let offset = ifd0.integer(tag), visited.insert(offset).inserted else { return nil }
            return try? TIFFDirectory(data: data, header: header, offset: offset)
        }
        if let exif = sub(Tag.exifIFD) {
            dateTimeOriginal = exif.text(Tag.dateTimeOriginal)
            offsetTimeOriginal = exif.text(Tag.offsetTimeOriginal)
            focalLength = exif.number(Tag.focalLength).flatMap { $0 > 0 ? $0 : nil }
            focalLengthIn35mmFilm = exif.number(Tag.focalLength35).flatMap { $0 > 0 ? $0 : nil }
            if let w = exif.integer(Tag.pixelX), w > 0 { pixelWidth = w }
            if let h = exif.integer(Tag.pixelY), h > 0 { pixelHeight = h }
            focalPlaneXResolution = exif.number(Tag.focalPlaneX).flatMap { $0 > 0 ? $0 : nil }
            focalPlaneYResolution = exif.number(Tag.focalPlaneY).flatMap { $0 > 0 ? $0 : nil }
            switch exif.integer(Tag.focalPlaneUnit) ?? 2 {
            case 2: focalPlaneResolutionUnit = 25.4   // inch, the default
            case 3: focalPlaneResolutionUnit = 10     // centimetre
            case 4: focalPlaneResolutionUnit = 1      // millimetre
            case 5: focalPlaneResolutionUnit = 0.001  // micrometre
            default: focalPlaneResolutionUnit = nil
            }
        }
        if let gps = sub(Tag.gpsIFD) {
            func angle(_ tag: UInt16, _ refTag: UInt16, negative: String) -> Double? {
                guard let v = gps.numbers(tag), !v.isEmpty else { return nil }
                var degrees = v[0]
                if v.count > 1 { degrees += v[1] / 60 }
                if v.count > 2 { degrees += v[2] / 3600 }
                return gps.text(refTag)?.uppercased() == negative ? -degrees : degrees
            }
            latitude = angle(Tag.gpsLatitude, Tag.gpsLatitudeRef, negative: "S")
            longitude = angle(Tag.gpsLongitude, Tag.gpsLongitudeRef, negative: "W")
            if let a = gps.number(Tag.gpsAltitude) {
                altitude = gps.integer(Tag.gpsAltitudeRef) == 1 ? -a : a
            }
            imageDirection = gps.number(Tag.gpsImgDirection)
            imageDirectionReference = gps.text(Tag.gpsImgDirectionRef)?.uppercased()
            destinationBearing = gps.number(Tag.gpsDestBearing)
            destinationBearingReference = gps.text(Tag.gpsDestBearingRef)?.uppercased()
            gpsDate = gps.text(Tag.gpsDateStamp)
            gpsTime = gps.numbers(Tag.gpsTimeStamp).flatMap { $0.count == 3 ? $0 : nil }
        }
    }
}
