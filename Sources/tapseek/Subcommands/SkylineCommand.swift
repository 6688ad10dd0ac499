import ArgumentParser
import Foundation
import TapSeek

/// `tapseek skyline [FILE|-]`: where the DEM's skyline appears in a reading's image.
struct SkylineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skyline",
        abstract: "Where the DEM's skyline appears in a reading's camera image.",
        discussion: """
            Projects the skyline (searched every 0.05° of azimuth across the view) into the image of the \
            reading's camera under its own orientation and prints {"skyline":[{"x","y"},…],"warnings":[…]}: the \
            pixels inside the image, left to right, at most --points of them; none where the DEM ends before \
            it settles the skyline (a warning counts those azimuths). For drawing the terrain's outline \
            over the camera picture, or as a trace for `tapseek calibrate`.
            """
    )

    @Argument(help: "Reading JSON file (location, orientation, camera), or - for stdin.")
    var file: String = "-"

    @OptionGroup var options: LocateOptions

    @Option(parsing: .unconditional, help: "Most pixels printed (evenly chosen across the image, both ends included).")
    var points: Int = 200

    @Option(help: "Threads that compute the skyline.")
    var jobs: JobCount = .allCores

    func validate() throws {
        try jobs.validate()
        guard points >= 1 else { throw ValidationError("--points must be at least 1, got \(points)") }
    }

    func run() throws {
        let reading = try LocateCommand.readReading(file)
        guard reading.camera != nil else { throw InputError("reading: camera is missing; the skyline's pixels need it") }
        let locator = try options.locator(jobs: jobs.value)
        let pixels: [Reading.Pixel], unsettled: Int, azimuths: Int
        do {
            (pixels, unsettled, azimuths) = try locator.skylineInImage(of: reading, jobs: jobs.value)
        } catch {
            throw InputError(error.message)
        }
        var warnings: [String] = []
        if unsettled > 0 {
            warnings.append("\(unsettled) of \(azimuths) azimuths across the image have no skyline drawn: the DEM has no data there or ends before it settles the skyline (fetch the tiles around the view)")
        }
        // Evenly across the image, both ends included (one point: the middle one).
        let kept = pixels.count <= points ? pixels
            : points == 1 ? [pixels[pixels.count / 2]]
            : (0..<points).map { pixels[$0 * (pixels.count - 1) / (points - 1)] }
        var out = OutputBuffer()
        out.append("{\"skyline\":[")
        for (i, p) in kept.enumerated() {
            if i > 0 { out.append(",") }
            out.append("{\"x\":")
            out.appendFixed(p.x, decimals: 1)
            out.append(",\"y\":")
            out.appendFixed(p.y, decimals: 1)
            out.append("}")
        }
        out.append("],\"warnings\":")
        out.appendJSON(warnings)
        out.append("}")
        out.newline()
        out.flush()
    }
}
