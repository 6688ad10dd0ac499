import ArgumentParser
import TapSeek

/// What `batch` and `report` read and how: the log, its format, which readings to keep, where it
/// was recorded and whether calibrations carry over. Both locate a log the same way.
struct LogOptions: ParsableArguments {
    @Argument(help: "JSON Lines file, phone log file, Sensor Logger or phyphox export folder or zip; - for stdin.")
    var file: String = "-"

    @Option(help: "Input format; auto recognises JSON Lines, the phone apps' CSV headers and export folders.")
    var format: BatchFormat = .auto

    @Option(parsing: .unconditional, help: "Keep a reading only after this many seconds since the last one kept (or --min-move).")
    var every: Double?

    @Option(name: .customLong("min-move"), parsing: .unconditional, help: "Keep a reading only after a move of this many metres from the last one kept (or --every).")
    var minMove: Double?

    @Flag(inversion: .prefixedNo, help: "Carry the calibration of a reading with skyline or landmarks over to the readings after it, until the next such reading.")
    var carryCalibration = true

    @Option(parsing: .unconditional, help: FixedLocation.help)
    var location: String?

    func validate() throws {
        if let location { _ = try FixedLocation.parse(location) }
        do throws(ImportError) {
            _ = try thinning.validated()
        } catch {
            throw ValidationError("\(error.column ?? "") \(error.message)")
        }
    }

    var thinning: Thinning { Thinning(every: every, minMove: minMove) }

    /// The log opened for reading; `format` overrides the option (batch reads `--format geojson`
    /// as JSON Lines).
    func input(format: BatchFormat? = nil, numbered: Bool = false) throws -> BatchInput {
        try BatchInput(path: file, format: format ?? self.format, thinning: thinning, numbered: numbered,
                       location: try location.map { try FixedLocation.parse($0) })
    }
}
