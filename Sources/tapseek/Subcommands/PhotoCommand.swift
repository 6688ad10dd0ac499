import ArgumentParser
import Dispatch
import Foundation
import TapSeek

/// `tapseek photo FILE|DIR…`: photos in, their orientation fitted to the DEM, skyline, peaks and
/// taps out, one JSON line per photo in the order given.
struct PhotoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "photo",
        abstract: "Read photos (JPEG, HEIC): fit the camera's orientation from the skyline in the pixels, answer taps, name the peaks.",
        discussion: """
            Each photo's EXIF and XMP give the position, altitude, time, field of view and, when the phone wrote one, \
            the compass direction; the skyline found in its pixels is fitted to the DEM's skyline from that position \
            (heading ±35° of the compass's, or all 360° without one; pitch ±25° and roll ±10° unless given). A fit that \
            cannot be trusted is refused: the photo is then "uncalibrated" with a warning saying why. Directories are \
            read in name order with their sub-folders, skipping files that are not JPEG or HEIF by their bytes (a warning on stderr). Prints \
            one JSON object per photo, in order, also for photos that fail (status "error"). Exit status 0 when every \
            photo has its line; 2 on bad usage.
            """
    )

    @Argument(help: ArgumentHelp("Photos (JPEG, HEIC/HEIF) and directories of photos.", valueName: "file-or-dir"))
    var paths: [String] = []

    @OptionGroup var options: LocateOptions

    @Option(help: ArgumentHelp("A tapped pixel of the image as displayed, X,Y (repeatable).", valueName: "x,y"))
    var tap: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Where the photo was taken, LAT,LON (overrides EXIF GPS).", valueName: "lat,lon"))
    var location: String?

    @Option(parsing: .unconditional, help: "Altitude of the camera, metres above mean sea level (overrides the file's).")
    var altitude: Double?

    @Option(parsing: .unconditional, help: "Heading of the optical axis, degrees (overrides the file's; the search centres on it).")
    var heading: Double?

    @Option(help: "North of --heading: true or magnetic.")
    var headingReference: HeadingReferenceOption = .true

    @Option(parsing: .unconditional, help: "Pitch of the optical axis, degrees (then searched ±5° instead of ±25°).")
    var pitch: Double?

    @Option(parsing: .unconditional, help: "Roll about the optical axis, degrees (then searched ±5° instead of ±10°).")
    var roll: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Degrees of heading searched on either side of the compass's (default 35); 180 searches all around.", valueName: "deg"))
    var headingSearch: Double?

    @Option(help: "Horizontal field of view of the image as displayed, degrees (overrides EXIF's focal length).")
    var fov: Double?

    @Option(help: ArgumentHelp("Write NAME.svg per photo into this directory: the photo with its skyline, the fitted DEM skyline, peaks and taps.", valueName: "dir"))
    var annotate: String?

    @OptionGroup var sampling: UncertaintyOptions

    @Option(help: "Photos answered at once.")
    var jobs: JobCount = .allCores

    /// Largest photo file read, bytes.
    static let maximumFileBytes = 256 << 20

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one photo or directory") }
        try jobs.validate()
        for t in tap { _ = try Self.pixel(t) }
        if let location { _ = try Self.point(location) }
        if let fov, !(fov > 0 && fov < 180) { throw ValidationError("--fov must be within (0, 180) degrees, got \(fov)") }
        if let pitch, !(pitch.isFinite && (-90...90).contains(pitch)) { throw ValidationError("--pitch must be within −90…90, got \(pitch)") }
        if let heading, !heading.isFinite { throw ValidationError("--heading must be a finite number, got \(heading)") }
        if let headingSearch, !(headingSearch > 0 && headingSearch.isFinite) { throw ValidationError("--heading-search must be a number of degrees > 0, got \(headingSearch)") }
        if let roll, !roll.isFinite { throw ValidationError("--roll must be a finite number, got \(roll)") }
        if let altitude, !altitude.isFinite { throw ValidationError("--altitude must be a finite number, got \(altitude)") }
        if let annotate {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: annotate, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("--annotate \(annotate): no such directory")
            }
        }
    }

    static func pixel(_ text: String) throws -> Reading.Pixel {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]), x.isFinite, y.isFinite, x >= 0, y >= 0 else {
            throw ValidationError("--tap must be X,Y in pixels (two numbers ≥ 0), got \"\(text)\"")
        }
        return Reading.Pixel(x: x, y: y)
    }

    static func point(_ text: String) throws -> (Double, Double) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), abs(lat) <= 90, abs(lon) <= 180 else {
            throw ValidationError("--location must be LAT,LON in degrees (−90…90, −180…180), got \"\(text)\"")
        }
        return (lat, lon)
    }

    func run() throws {
        let locator = try options.locator(jobs: jobs.value)
        let files = Self.photos(in: paths)
        let point = try location.map(Self.point)
        let overrides = PhotoOverrides(latitude: point?.0, longitude: point?.1, altitude: altitude, heading: heading,
                                       headingReference: headingReference.reference, pitch: pitch, roll: roll, horizontalFOV: fov,
                                       headingSearch: headingSearch)
        let taps = try tap.map(Self.pixel)
        let annotate = self.annotate
        let uncertainty = sampling.settings
        let concurrent = min(jobs.value, max(files.count, 1))
        // One photo at a time gets every core for its DEM skyline; several share them out.
        let perPhoto = concurrent == 1 ? jobs.value : 1
        let pending = Locked(Pending(count: files.count))
        DispatchQueue.concurrentPerform(iterations: concurrent) { worker in
            while let index = pending.withLock({ $0.take() }) {
                let line = Self.answer(files[index], locator: locator, overrides: overrides, taps: taps, uncertainty: uncertainty,
                                       jobs: perPhoto, annotate: annotate)
                pending.withLock { $0.finish(index, line) }
            }
        }
        pending.withLock { $0.close() }
    }

    /// The photos of `paths`: files as given, directories' photos in name order, sub-folders
    /// read in turn (a phone's export nests them: `DCIM/100APPLE`), at most ``folderDepth`` deep;
    /// other files skipped with a warning on stderr.
    static func photos(in paths: [String]) -> [String] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                files.append(path)
                continue
            }
            collect(folder: path, depth: 0, into: &files)
        }
        return files
    }

    /// How many levels of sub-folders `photo DIR` reads.
    static let folderDepth = 8

    static func collect(folder path: String, depth: Int, into files: inout [String]) {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
        for name in names {
                let file = (path as NSString).appendingPathComponent(name)
                var sub: ObjCBool = false
                guard FileManager.default.fileExists(atPath: file, isDirectory: &sub) else { continue }
                if sub.boolValue {
                    if depth < folderDepth {
                        collect(folder: file, depth: depth + 1, into: &files)
                    } else {
                        StandardError.write("tapseek photo: skipped \(file): folders nested more than \(folderDepth) deep are not read")
                    }
                    continue
                }
                if let head = FileHandle(forReadingAtPath: file)?.readData(ofLength: 64), PhotoMetadata.isPhoto(ArraySlice(head)) {
                    files.append(file)
                } else {
                    StandardError.write("tapseek photo: skipped \(file): not a JPEG or HEIF photo")
                }
        }
    }

    /// One photo's JSON line (and its annotation when asked).
    static func answer(_ file: String, locator: Locator, overrides: PhotoOverrides, taps: [Reading.Pixel],
                       uncertainty: TargetUncertainty.Settings?, jobs: Int, annotate: String?) -> OutputBuffer {
        var result: PhotoResult
        var pixels: PixelImage?
        switch readFile(file) {
        case .failure(let message):
            result = .failure(.badInput, message)
        case .success(let bytes):
            (result, pixels) = locator.photoAndPixels(bytes: bytes, overrides: overrides, taps: taps, uncertainty: uncertainty, jobs: jobs)
        }
        result.file = file
        if let annotate, let pixels, let camera = result.reading?.camera {
            let name = ((file as NSString).lastPathComponent as NSString).deletingPathExtension + ".svg"
            let target = (annotate as NSString).appendingPathComponent(name)
            do {
                let jpeg = try PhotoPixels.jpeg(pixels.downscaled(toWidth: 1200), quality: 80)
                let svg = PhotoPicture(result: result, jpeg: jpeg, width: camera.imageWidth, height: camera.imageHeight).svg()
                try SVGFile.write(svg, to: target, option: "--annotate")
            } catch let error as InputError {
                result.warnings.append(Warning(.other, error.message))
            } catch {
                result.warnings.append(Warning(.other, "--annotate \(target): \(error)"))
            }
        }
        var out = OutputBuffer()
        out.appendJSON(result)
        out.newline(flushing: false)
        return out
    }

    enum FileRead { case success([UInt8]), failure(String) }

    static func readFile(_ path: String) -> FileRead {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .failure("\(path): cannot be opened (no such file, or no permission)") }
        defer { try? handle.close() }
        guard let data = try? handle.readToEnd() ?? Data() else { return .failure("\(path): cannot be read") }
        guard data.count <= maximumFileBytes else { return .failure("\(path): holds \(data.count) bytes, more than the \(maximumFileBytes >> 20) MiB a photo may have") }
        return .success([UInt8](data))
    }

    /// Photos handed out to workers and their lines written in order as they complete, with
    /// the progress line on a terminal.
    struct Pending {
        let count: Int
        var next = 0
        var written = 0
        var done: [Int: OutputBuffer] = [:]
        var progress: BatchProgress

        init(count: Int) {
            self.count = count
            progress = BatchProgress(totalBytes: count, counting: "photo")
        }

        mutating func take() -> Int? {
            guard next < count else { return nil }
            next += 1
            return next - 1
        }

        mutating func finish(_ index: Int, _ line: OutputBuffer) {
            done[index] = line
            while var ready = done.removeValue(forKey: written) {
                progress.clear()
                ready.flush()
                written += 1
            }
            progress.update(results: written, bytes: written)
        }

        mutating func close() { progress.clear() }
    }
}

/// `--heading-reference`.
enum HeadingReferenceOption: String, ExpressibleByArgument, CaseIterable {
    case `true`, magnetic

    var reference: Reading.HeadingReference { self == .true ? .true : .magnetic }
}
