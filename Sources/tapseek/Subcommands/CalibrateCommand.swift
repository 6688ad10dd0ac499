import ArgumentParser
import Foundation
import TapSeek

/// `tapseek calibrate [FILE|-]`: the orientation that best explains a reading's traced skyline
/// and landmarks.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Correct a reading's heading, pitch and roll from its traced skyline and landmarks.",
        discussion: """
            The reading (JSON) carries "skyline" (image pixels on the skyline) and/or "landmarks" \
            (pixels of known places). Prints {"orientation","correction","residual","matched","points","warnings"}: \
            the calibrated orientation (heading from true north), calibrated − given, the RMS misfit in degrees \
            of the matched points, and how many of the given points matched. Searches ±30° of heading and \
            ±5° of pitch and roll around the reading's own. Exit status 1, with the reason on stderr, when the \
            points fit nowhere (wrong place, sky only, too few points) or the heading is ill-determined.
            """
    )

    @Argument(help: "Reading JSON file, or - for stdin.")
    var file: String = "-"

    @OptionGroup var options: LocateOptions

    @Option(parsing: .unconditional, help: "Degrees of heading searched on either side of the reading's.")
    var headingRange: Double = OrientationFit.Limits().heading

    @Option(parsing: .unconditional, help: "Degrees of pitch and of roll searched on either side of the reading's.")
    var tiltRange: Double = OrientationFit.Limits().pitch

    @Option(help: "Threads that compute the DEM's skyline.")
    var jobs: JobCount = .allCores

    func validate() throws {
        try jobs.validate()
        guard headingRange > 0, headingRange <= 90 else { throw ValidationError("--heading-range must be within (0, 90], got \(headingRange)") }
        guard tiltRange > 0, tiltRange <= 20 else { throw ValidationError("--tilt-range must be within (0, 20], got \(tiltRange)") }
    }

    func run() throws {
        let reading = try LocateCommand.readReading(file)
        let locator = try options.locator(jobs: jobs.value)
        let calibration: Calibration
        do {
            calibration = try locator.calibrate(reading, limits: .init(heading: headingRange, pitch: tiltRange, roll: tiltRange),
                                                jobs: jobs.value)
        } catch {
            throw InputError("calibrate: \(error.message)")
        }
        var out = OutputBuffer()
        out.appendJSON(calibration)
        out.newline()
        out.flush()
    }
}
