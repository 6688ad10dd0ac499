import Foundation
import Testing
@testable import TapSeekCore
import TapSeekTestSupport

/// A photo's metadata read from files laid out byte by byte as cameras write them
/// (``PhotoFixtures``): every field against the value put there, both byte orders, the EXIF
/// orientations that turn the image, HEIF, drone XMP, and hostile files.
struct PhotoMetadataTests {
    static let position = (latitude: 46.624, longitude: 8.041, altitude: 1034.5)

    static func phone(bigEndian: Bool, orientation: Int = 1, direction: Double? = 211.3, directionRef: String = "T",
                      offset: String? = "+02:00") throws -> PhotoMetadata {
        let exif = PhotoFixtures.phoneEXIF(latitude: position.latitude, longitude: position.longitude, altitude: position.altitude,
                                           direction: direction, directionRef: directionRef, orientation: orientation,
                                           offset: offset, bigEndian: bigEndian)
        let jpeg = PhotoFixtures.minimalJPEG(width: 4032, height: 3024, segments: [PhotoFixtures.exifSegment(exif)])
        return try PhotoMetadata(bytes: jpeg[...])
    }

    @Test(arguments: [true, false])
    func aPhonesEXIFIsReadInEitherByteOrder(bigEndian: Bool) throws {
        let m = try Self.phone(bigEndian: bigEndian)
        #expect(m.format == .jpeg)
        #expect(m.width == 4032 && m.height == 3024)
        // Degrees, minutes and hundredths of seconds: within 0.01″ ≈ 0.3 m.
        #expect(abs(try #require(m.latitude) - Self.position.latitude) < 3e-6)
        #expect(abs(try #require(m.longitude) - Self.position.longitude) < 3e-6)
        #expect(m.altitude == 1034.5 && m.altitudeSource == .exif)
        #expect(m.heading == 211.3 && m.headingReference == .true && m.headingSource == .exif)
        #expect(m.make == "Apple" && m.model == "iPhone 15")
        // 2026-07-14 09:41:05 at +02:00 is 07:41:05 UTC.
        #expect(m.time == ISO8601DateTime.parse("2026-07-14T07:41:05Z"))
        #expect(!m.timeIsLocal)
        #expect(m.pitch == nil && m.roll == nil)
        #expect(abs(try #require(m.horizontalFOV) - FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: 4032, height: 3024)) < 1e-9)
    }

    @Test func southAndWestAreNegativeAndBelowSeaLevelIsNegative() throws {
        let exif = PhotoFixtures.phoneEXIF(latitude: -37.9169, longitude: -70.5, altitude: -415, direction: nil)
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 640, height: 480, segments: [PhotoFixtures.exifSegment(exif)])[...])
        #expect(abs(try #require(m.latitude) + 37.9169) < 3e-6)
        #expect(abs(try #require(m.longitude) + 70.5) < 3e-6)
        #expect(m.altitude == -415)
        #expect(m.heading == nil)
    }

    @Test func aMagneticDirectionSaysSo() throws {
        let m = try Self.phone(bigEndian: true, directionRef: "M")
        #expect(m.headingReference == .magnetic)
    }

    /// Orientation 6 (a phone held upright: stored landscape, displayed portrait) and 8.
    @Test(arguments: [6, 8])
    func orientationsThatTurnTheImageSwapItsSize(orientation: Int) throws {
        let m = try Self.phone(bigEndian: true, orientation: orientation)
        #expect(m.width == 3024 && m.height == 4032)
        #expect(m.orientation.exifValue == orientation)
        // The field of view is that of the displayed width, the narrow side.
        #expect(abs(try #require(m.horizontalFOV) - FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: 3024, height: 4032)) < 1e-9)
    }

    /// A 3 × 2 stored image whose pixels are numbered, turned as each orientation says: the
    /// displayed corners are the ones the EXIF standard's table names.
    @Test func everyOrientationTurnsThePixelsAsEXIFDefines() throws {
        // Stored:  0 1 2
        //          3 4 5
        let stored = PixelImage(width: 3, height: 2, rgb: (0..<6).flatMap { [UInt8($0), 0, 0] })!
        // The displayed image's top-left, top-right and bottom-left pixels for each value
        // (EXIF 2.32, Orientation: where the 0th row and 0th column of the stored image go).
        let expected: [Int: (topLeft: UInt8, topRight: UInt8, bottomLeft: UInt8)] = [
            1: (0, 2, 3), 2: (2, 0, 5), 3: (5, 3, 2), 4: (3, 5, 0),
            5: (0, 3, 2), 6: (3, 0, 5), 7: (5, 2, 3), 8: (2, 5, 0),
        ]
        for (value, corners) in expected {
            let shown = stored.oriented(ImageOrientation(exifValue: value))
            let w = shown.width, h = shown.height
            #expect((w, h) == (value >= 5 ? 2 : 3, value >= 5 ? 3 : 2))
            #expect(shown.rgb[0] == corners.topLeft, "orientation \(value)")
            #expect(shown.rgb[(w - 1) * 3] == corners.topRight, "orientation \(value)")
            #expect(shown.rgb[(h - 1) * w * 3] == corners.bottomLeft, "orientation \(value)")
        }
    }

    @Test func withoutAnOffsetTheGPSClockGivesUTC() throws {
        var exif: [(UInt16, PhotoFixtures.Value)] = [(0x9003, .ascii("2026:07:14 09:41:05"))]
        exif.append((0xA405, .short([26])))
        let gps: [(UInt16, PhotoFixtures.Value)] = [(0x1D, .ascii("2026:07:14")), (0x07, .rational([(7, 1), (41, 1), (5, 1)]))]
        let tiff = PhotoFixtures.tiff([(0x8769, .directory(exif)), (0x8825, .directory(gps))], bigEndian: false)
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 10, height: 10, segments: [PhotoFixtures.exifSegment(tiff)])[...])
        #expect(m.time == ISO8601DateTime.parse("2026-07-14T07:41:05Z"))
        #expect(!m.timeIsLocal)
        #expect(m.latitude == nil, "no GPS position was written")
    }

    @Test func aLocalClockAloneIsFlagged() throws {
        let m = try Self.phone(bigEndian: true, offset: nil)
        #expect(m.timeIsLocal)
        #expect(m.time == ISO8601DateTime.parse("2026-07-14T09:41:05Z"))
    }

    @Test func aPhotoWithoutEXIFHasOnlyItsSize() throws {
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 1200, height: 900)[...])
        #expect(m.width == 1200 && m.height == 900)
        #expect(m.latitude == nil && m.heading == nil && m.time == nil && m.horizontalFOV == nil)
    }

    @Test func theFocalLengthWithTheFocalPlaneResolutionGivesTheFieldOfView() throws {
        // A 36 mm-wide sensor of 6000 pixels (6000 / 36 px/mm) behind a 24 mm lens: 2·atan(18/24).
        let exif: [(UInt16, PhotoFixtures.Value)] = [
            (0x920A, .rational([(24, 1)])), (0xA002, .long([6000])), (0xA003, .long([4000])),
            (0xA20E, .rational([(6000, 36)])), (0xA20F, .rational([(4000, 24)])), (0xA210, .short([4])),
        ]
        let tiff = PhotoFixtures.tiff([(0x8769, .directory(exif))], bigEndian: true)
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 6000, height: 4000, segments: [PhotoFixtures.exifSegment(tiff)])[...])
        #expect(abs(try #require(m.horizontalFOV) - 2 * atan(18.0 / 24) * 180 / .pi) < 1e-9)
    }

    /// The diagonal convention against published angles of view: 26 mm → 79.5° and 28 mm →
    /// 75.4° (the diagonal angles quoted for phone lenses, e.g. phoneproscons.com on the Google
    /// Pixel), and 13 mm → 120° as Apple publishes for the iPhone 11's 13 mm-equivalent ultra-wide
    /// (lens distortion and the rounded focal length account for the 2°).
    @Test func thirtyFiveMillimetreEquivalentsMatchPublishedAnglesOfView() {
        #expect(abs(FieldOfView.diagonal(focalLengthIn35mmFilm: 26) - 79.5) < 0.1)
        #expect(abs(FieldOfView.diagonal(focalLengthIn35mmFilm: 28) - 75.4) < 0.1)
        #expect(abs(FieldOfView.diagonal(focalLengthIn35mmFilm: 13) - 120) < 2.5)
        // The horizontal angle of a 3:2 frame is the full frame's own: 2·atan(18/f).
        #expect(abs(FieldOfView.horizontal(focalLengthIn35mmFilm: 50, width: 6000, height: 4000) - 2 * atan(18.0 / 50) * 180 / .pi) < 1e-9)
    }

    @Test func aDroneGivesItsGimbalPoseInXMP() throws {
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description rdf:about="DJI Meta Data" xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/"
              drone-dji:AbsoluteAltitude="+1450.21" drone-dji:RelativeAltitude="+120.00"
              drone-dji:GimbalRollDegree="+0.00" drone-dji:GimbalYawDegree="-12.50" drone-dji:GimbalPitchDegree="-30.10"
              drone-dji:FlightYawDegree="-11.90"/></rdf:RDF></x:xmpmeta>
            """
        let exif = PhotoFixtures.phoneEXIF(latitude: 46.6, longitude: 8.0, altitude: 1330, direction: nil)
        let jpeg = PhotoFixtures.minimalJPEG(width: 4000, height: 3000, segments: [PhotoFixtures.exifSegment(exif), PhotoFixtures.xmpSegment(packet)])
        let m = try PhotoMetadata(bytes: jpeg[...])
        #expect(m.heading == 347.5 && m.headingSource == .xmp && m.headingReference == .true)
        #expect(m.pitch == -30.1 && m.roll == 0)
        #expect(m.altitude == 1450.21 && m.altitudeSource == .xmp)
    }

    @Test func aPhotoSphereGivesItsPoseAsElements() throws {
        let packet = "<x:xmpmeta><rdf:RDF><rdf:Description><GPano:PoseHeadingDegrees>87.5</GPano:PoseHeadingDegrees><GPano:PosePitchDegrees> -2 </GPano:PosePitchDegrees></rdf:Description></rdf:RDF></x:xmpmeta>"
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 8000, height: 4000, segments: [PhotoFixtures.xmpSegment(packet)])[...])
        #expect(m.heading == 87.5 && m.pitch == -2 && m.roll == nil)
    }

    @Test func aHEIFPhotoGivesItsEXIFXMPAndTurnedSize() throws {
        let exif = PhotoFixtures.phoneEXIF(latitude: 27.9957, longitude: 86.8285, altitude: 5650, direction: 95, orientation: 6, bigEndian: false)
        let packet = "<x:xmpmeta><GPano:PosePitchDegrees>4.5</GPano:PosePitchDegrees></x:xmpmeta>"
        // irot 3: three quarter turns anticlockwise, one clockwise: EXIF 6.
        let file = PhotoFixtures.heif(width: 4032, height: 3024, rotation: 3, exif: exif, xmp: packet)
        #expect(PhotoMetadata.isPhoto(file[...]))
        let m = try PhotoMetadata(bytes: file[...])
        #expect(m.format == .heif)
        #expect(m.width == 3024 && m.height == 4032)
        #expect(m.orientation.exifValue == 6)
        #expect(abs(try #require(m.latitude) - 27.9957) < 3e-6)
        #expect(m.heading == 95)
        #expect(m.pitch == 4.5)
    }

    // MARK: Hostile files

    @Test func aTruncatedJPEGIsRefusedInOneLine() throws {
        let jpeg = PhotoFixtures.minimalJPEG(width: 100, height: 100, segments: [PhotoFixtures.exifSegment(PhotoFixtures.phoneEXIF(latitude: 1, longitude: 1, altitude: 1, direction: 1))])
        for cut in [3, 10, 40, jpeg.count - 12] {
            #expect(throws: PhotoMetadataError.self) { try PhotoMetadata(bytes: jpeg[..<cut]) }
        }
        #expect(throws: PhotoMetadataError.notAPhoto) { try PhotoMetadata(bytes: Array("GIF89a".utf8)[...]) }
    }

    @Test func aHugeHeaderIsRefusedBeforeAnythingIsAllocated() {
        let jpeg = PhotoFixtures.minimalJPEG(width: 65_000, height: 65_000)
        #expect(throws: PhotoMetadataError.self) { try PhotoMetadata(bytes: jpeg[...]) }
        let heif = PhotoFixtures.heif(width: 100_000, height: 100_000, exif: nil)
        #expect(throws: PhotoMetadataError.self) { try PhotoMetadata(bytes: heif[...]) }
    }

    @Test func offsetsOutsideTheFileOrInALoopAreSkipped() throws {
        // The EXIF directory points past the end; the GPS directory points back at IFD0.
        let tiff = PhotoFixtures.tiff([(0x0112, .short([6])), (0x8769, .rawOffset(1_000_000)), (0x8825, .rawOffset(8))], bigEndian: true)
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 40, height: 30, segments: [PhotoFixtures.exifSegment(tiff)])[...])
        #expect(m.width == 30 && m.height == 40, "IFD0's orientation still counts")
        #expect(m.latitude == nil && m.time == nil)
        // A directory claiming 60 000 entries in a few bytes is refused, not read.
        var claims = PhotoFixtures.tiff([(0x0112, .short([1]))], bigEndian: true)
        claims[8] = 0xEA
        claims[9] = 0x60
        let fields = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 40, height: 30, segments: [PhotoFixtures.exifSegment(claims)])[...])
        #expect(fields.orientation.exifValue == 1)
    }

    @Test func anXMPBombIsScannedNotExpanded() throws {
        // Nested entities of a "billion laughs" and a huge value: neither is expanded or kept.
        var packet = "<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\">"
        for i in 1...9 { packet += "<!ENTITY a\(i) \"" + String(repeating: "&a\(i == 1 ? "" : String(i - 1));", count: 10) + "\">" }
        packet += "]><x drone-dji:GimbalYawDegree=\"&a9;\" GPano:PoseHeadingDegrees=\"" + String(repeating: "9", count: 50_000) + "\"/>"
        let m = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 10, height: 10, segments: [PhotoFixtures.xmpSegment(String(packet.prefix(60_000)))])[...])
        #expect(m.heading == nil)
    }

    @Test func hostileHEIFBoxesAreRefusedInOneLine() {
        var file = PhotoFixtures.heif(width: 100, height: 80, exif: PhotoFixtures.phoneEXIF(latitude: 1, longitude: 1, altitude: 1, direction: 1))
        // The meta box claims to be larger than the file.
        let meta = 24
        file[meta] = 0x7F
        #expect(throws: PhotoMetadataError.self) { try PhotoMetadata(bytes: file[...]) }
        #expect(throws: PhotoMetadataError.self) { try PhotoMetadata(bytes: PhotoFixtures.heif(width: 10, height: 10, exif: nil)[..<40]) }
    }
}
