import Foundation
import TapSeek
import TapSeekTestSupport
import Testing

/// `tapseek photo` run as a user runs it, on photos rendered over the real Everest tile with a
/// known orientation, encoded as JPEG (libjpeg-turbo) and HEIC (Debian's heif-enc), their EXIF
/// written by Debian's exiftool as a phone writes it.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .serialized, .timeLimit(.minutes(10)))
struct PhotoCommandTests {
    static let location = Reading.Location(latitude: 27.9957, longitude: 86.8285, altitude: 5650)
    static let truth = CameraOrientation(heading: 84, pitch: 9, roll: -2)
    /// The compass's reading in the EXIF: 14° off.
    static let compass = 98.0

    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path), geoid: try Geoid())
    }

    static func camera(width: Int, height: Int) -> PinholeCamera {
        PinholeCamera(horizontalFOV: FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: width, height: height),
                      imageWidth: Double(width), imageHeight: Double(height))
    }

    /// Writes `image` as a JPEG at `url` (its stored pixels turned for `orientation`) with a
    /// phone's EXIF.
    static func writePhoto(_ image: PixelImage, to url: URL, orientation: Int = 1, gps: Bool = true, direction: Double? = compass) throws {
        let o = ImageOrientation(exifValue: orientation)
        let (sw, sh) = o.transposed ? (image.height, image.width) : (image.width, image.height)
        var stored = [UInt8](repeating: 0, count: image.rgb.count)
        for v in 0..<image.height {
            for u in 0..<image.width {
                let s = o.storedPixel(u: u, v: v, width: sw, height: sh)
                for c in 0..<3 { stored[(s.y * sw + s.x) * 3 + c] = image.rgb[(v * image.width + u) * 3 + c] }
            }
        }
        try Data(try PhotoPixels.jpeg(PixelImage(width: sw, height: sh, rgb: stored)!, quality: 90)).write(to: url)
        var tags = ["-FocalLengthIn35mmFormat=26", "-DateTimeOriginal=2026:07:14 09:41:05", "-OffsetTimeOriginal=+05:45",
                    "-Orientation#=\(orientation)", "-Make=Apple", "-Model=iPhone 15"]
        if gps {
            tags += ["-GPSLatitude=\(location.latitude)", "-GPSLatitudeRef=N", "-GPSLongitude=\(location.longitude)", "-GPSLongitudeRef=E",
                     "-GPSAltitude=\(location.altitude!)", "-GPSAltitudeRef=0"]
        }
        if let direction { tags += ["-GPSImgDirection=\(direction)", "-GPSImgDirectionRef=T"] }
        try SharedData.run("exiftool", ["-q", "-overwrite_original"] + tags + [url.path])
    }

    static func render(width: Int = 800, height: Int = 600, fog: Double = 0) throws -> PixelImage {
        var renderer = PhotoRenderer(location: location, orientation: truth, camera: camera(width: width, height: height))
        renderer.fog = fog
        return try renderer.render(locator: try locator())
    }

    static func lines(_ run: CLIRunner.Result) throws -> [[String: Any]] {
        try run.stdout.split(separator: "\n").map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    static func orientation(_ line: [String: Any]) -> (Double, Double, Double)? {
        guard let o = (line["calibration"] as? [String: Any])?["orientation"] as? [String: Double] else { return nil }
        return (o["heading"]!, o["pitch"]!, o["roll"]!)
    }

    @Test func aPhonePhotoIsCalibratedFromItsSkylineAndItsTapAnswered() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("IMG_0001.jpg")
        try Self.writePhoto(try Self.render(), to: photo)
        let run = try CLIRunner.run(["photo", photo.path, "--dem", SharedData.dem.path, "--tap", "515,204"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(try Self.lines(run).first)
        #expect(line["status"] as? String == "calibrated")
        #expect(line["file"] as? String == photo.path)
        let (h, p, r) = try #require(Self.orientation(line))
        #expect(abs(h - Self.truth.heading) < 0.2 && abs(p - Self.truth.pitch) < 0.2 && abs(r - Self.truth.roll) < 0.5, "\(h) \(p) \(r)")
        let correction = try #require((line["calibration"] as? [String: Any])?["correction"] as? [String: Double])
        #expect(abs(correction["heading"]! + 14) < 0.2, "the compass was 14° off")
        let sources = try #require(line["sources"] as? [String: String])
        #expect(sources["location"] == "exif" && sources["heading"] == "skyline" && sources["horizontalFOV"] == "exif")
        let reading = try #require(line["reading"] as? [String: Any])
        #expect(reading["time"] as? String == "2026-07-14T03:56:05Z")
        let camera = try #require(reading["camera"] as? [String: Any])
        #expect(camera["imageWidth"] as? Int == 800 && camera["imageHeight"] as? Int == 600)
        let skyline = try #require(line["skyline"] as? [String: Any])
        #expect((skyline["coverage"] as? Double ?? 0) > 0.8)
        // Every point carries its confidence, at least the detector's least kept.
        let points = try #require(skyline["points"] as? [[String: Double]])
        #expect(!points.isEmpty && points.allSatisfy { ($0["confidence"] ?? -1) >= SkylineDetector.minimumConfidence && ($0["confidence"] ?? 2) <= 1 })
        let tap = try #require((line["taps"] as? [[String: Any]])?.first)
        #expect(tap["status"] as? String == "hit")
        let target = try #require(tap["target"] as? [String: Double])
        // Everest's summit pyramid.
        #expect(abs(target["latitude"]! - 27.98806) < 0.004 && abs(target["longitude"]! - 86.92528) < 0.004, "\(target)")
        #expect(!(line["peaks"] as? [Any] ?? []).isEmpty)
    }

    /// A phone held upright: the pixels are stored landscape and EXIF Orientation 6 turns them.
    @Test func anUprightPhotoIsReadAsDisplayed() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("upright.jpg")
        try Self.writePhoto(try Self.render(width: 600, height: 800), to: photo, orientation: 6)
        let run = try CLIRunner.run(["photo", photo.path, "--dem", SharedData.dem.path])
        let line = try #require(try Self.lines(run).first)
        let camera = try #require((line["reading"] as? [String: Any])?["camera"] as? [String: Any])
        #expect(camera["imageWidth"] as? Int == 600 && camera["imageHeight"] as? Int == 800)
        #expect(line["status"] as? String == "calibrated", "\(line["warnings"] ?? "")")
        let (h, p, _) = try #require(Self.orientation(line))
        #expect(abs(h - Self.truth.heading) < 0.2 && abs(p - Self.truth.pitch) < 0.2)
    }

    @Test func aHEICPhotoIsReadThroughLibheif() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let jpeg = folder.appendingPathComponent("a.jpg"), heic = folder.appendingPathComponent("a.heic")
        try Self.writePhoto(try Self.render(), to: jpeg)
        try SharedData.run("heif-enc", ["-q", "85", "-o", heic.path, jpeg.path])
        let run = try CLIRunner.run(["photo", heic.path, "--dem", SharedData.dem.path])
        let line = try #require(try Self.lines(run).first)
        #expect(line["status"] as? String == "calibrated", "\(line)")
        let (h, _, _) = try #require(Self.orientation(line))
        #expect(abs(h - Self.truth.heading) < 0.2)
    }

    @Test func aDirectoryIsReadInNameOrderWithALinePerPhoto() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.writePhoto(try Self.render(), to: folder.appendingPathComponent("b-clear.jpg"), direction: nil)
        try Self.writePhoto(try Self.render(fog: 0.995), to: folder.appendingPathComponent("a-fog.jpg"))
        try Self.writePhoto(try Self.render(), to: folder.appendingPathComponent("c-nogps.jpg"), gps: false)
        try Data("not a photo".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let missing = folder.appendingPathComponent("missing.jpg").path
        let run = try CLIRunner.run(["photo", folder.path, missing, "--dem", SharedData.dem.path, "--jobs", "2"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("notes.txt") && run.stderr.contains("not a JPEG or HEIF"))
        let lines = try Self.lines(run)
        #expect(lines.map { ($0["file"] as? String).map { ($0 as NSString).lastPathComponent } } == ["a-fog.jpg", "b-clear.jpg", "c-nogps.jpg", "missing.jpg"])
        #expect(lines.map { $0["status"] as? String } == ["uncalibrated", "calibrated", "error", "error"])
        #expect((lines[0]["warningCodes"] as? [String] ?? []).contains("no-skyline"))
        #expect((lines[1]["warningCodes"] as? [String] ?? []).contains("photo-incomplete"), "no compass: the whole circle was searched")
        #expect(((lines[2]["error"] as? [String: String])?["message"] ?? "").contains("GPS"))
        #expect(((lines[3]["error"] as? [String: String])?["message"] ?? "").contains("cannot be opened"))
        // The position given on the command line stands in for the missing GPS.
        let located = try CLIRunner.run(["photo", folder.appendingPathComponent("c-nogps.jpg").path, "--dem", SharedData.dem.path,
                                         "--location", "\(Self.location.latitude),\(Self.location.longitude)", "--altitude", "5650"])
        let line = try #require(try Self.lines(located).first)
        #expect(line["status"] as? String == "calibrated")
        #expect((line["sources"] as? [String: String])?["location"] == "option")
    }

    /// A phone's export nests its photos (`DCIM/100APPLE`): the folder's sub-folders are read
    /// too, each in name order after the files before it.
    @Test func aFolderIsReadWithItsSubFolders() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let nested = folder.appendingPathComponent("DCIM/100APPLE")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        let image = try Self.render(fog: 0.995)
        try Self.writePhoto(image, to: nested.appendingPathComponent("IMG_0001.jpg"), gps: false)
        try Self.writePhoto(image, to: folder.appendingPathComponent("a.jpg"), gps: false)
        try Self.writePhoto(image, to: folder.appendingPathComponent("z.jpg"), gps: false)
        let run = try CLIRunner.run(["photo", folder.path, "--dem", SharedData.dem.path, "--jobs", "1"])
        let files = try Self.lines(run).map { ($0["file"] as? String ?? "").replacingOccurrences(of: folder.path + "/", with: "") }
        #expect(files == ["DCIM/100APPLE/IMG_0001.jpg", "a.jpg", "z.jpg"], "\(files)")
    }

    @Test func badOptionsAreUsageErrors() throws {
        for arguments in [["--tap", "12"], ["--fov", "200"], ["--location", "95,8"], ["--annotate", "/no/such/folder"], []] {
            let run = try CLIRunner.run(["photo"] + (arguments.isEmpty ? [] : ["x.jpg"]) + arguments)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
    }

    /// The annotation, rendered by librsvg: sky just above the drawn DEM skyline, terrain just below.
    @Test func theAnnotationShowsTheSkyAboveTheFittedSkyline() throws {
        let folder = try SharedData.temporaryDirectory("photo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("everest.jpg")
        try Self.writePhoto(try Self.render(), to: photo)
        let run = try CLIRunner.run(["photo", photo.path, "--dem", SharedData.dem.path, "--annotate", folder.path, "--tap", "515,204"])
        #expect(run.status == 0)
        let svgURL = folder.appendingPathComponent("everest.svg")
        let svg = try String(contentsOf: svgURL, encoding: .utf8)
        #expect(svg.contains("data:image/jpeg;base64,") && svg.contains("id=\"dem-skyline\"") && svg.contains("id=\"detected-skyline\""))
        // Render it at the photo's size and read the pixels back through a JPEG.
        let png = folder.appendingPathComponent("everest.png"), jpeg = folder.appendingPathComponent("everest-render.jpg")
        try SharedData.run("rsvg-convert", ["-w", "800", "-h", "600", "-o", png.path, svgURL.path])
        try SharedData.run("gdal_translate", ["-q", "-of", "JPEG", "-co", "QUALITY=95", png.path, jpeg.path])
        let bytes = [UInt8](try Data(contentsOf: jpeg))
        let picture = try PhotoPixels.decode(bytes, metadata: try PhotoMetadata(bytes: bytes[...]), minimumWidth: 800)
        // The fitted DEM skyline's points, from the SVG.
        let group = try #require(svg.range(of: "id=\"dem-skyline\"").map { svg[$0.upperBound...] })
        let list = try #require(group.range(of: "points=\"").map { group[$0.upperBound...].prefix { $0 != "\"" } })
        let points = list.split(separator: " ").compactMap { pair -> (Double, Double)? in
            let xy = pair.split(separator: ",").compactMap { Double($0) }
            return xy.count == 2 ? (xy[0], xy[1]) : nil
        }
        #expect(points.count > 100)
        var skyAbove = 0, groundBelow = 0, checked = 0
        for (x, y) in points where x > 20 && x < 780 && y > 30 && y < 570 && (x < 540 || x > 580) {
            func pixel(_ yy: Double) -> (Int, Int, Int) {
                let i = (Int(yy) * picture.width + Int(x)) * 3
                return (Int(picture.rgb[i]), Int(picture.rgb[i + 1]), Int(picture.rgb[i + 2]))
            }
            let above = pixel(y - 8), below = pixel(y + 8)
            checked += 1
            if above.2 > above.0 + 30 { skyAbove += 1 }
            if below.2 < below.0 + 20 { groundBelow += 1 }
        }
        #expect(checked > 100)
        #expect(Double(skyAbove) > 0.9 * Double(checked), "\(skyAbove) of \(checked) points have sky above")
        #expect(Double(groundBelow) > 0.9 * Double(checked), "\(groundBelow) of \(checked) points have terrain below")
    }
}
