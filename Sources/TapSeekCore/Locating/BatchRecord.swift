import Foundation

/// One input record of a batch: the reading of one input line, or why that line gave none.
///
/// Every input line becomes exactly one record and every record exactly one result, so a batch
/// loses nothing: a line that cannot be read still yields an error result naming its line.
public struct BatchRecord: Sendable, Hashable {
    /// 1-based line of the record in its input (for per-sensor joins, in the driving file).
    public var line: Int
    /// When the record was sampled, if known; for a reading, its own ``Reading/time`` wins.
    public var time: Date?
    /// The reading, or why the line gave none (code `bad-input`, message starting `line N: `).
    public var reading: Result<Reading, LocateResult.Failure>
    /// The calibration of an earlier reading of the log, applied when this reading has no
    /// skyline or landmark pixels of its own (see ``CalibrationCarry``).
    public var carriedCalibration: Calibration?

    /// 1 MiB: the longest JSON Lines line read as a reading. A full reading is about 400 bytes,
    /// so a longer line is garbage, and the limit keeps a chunk of 1024 lines within a few MiB.
    public static let maximumLineLength = 1 << 20

    /// A reading read from line `line`.
    public init(line: Int, reading: Reading) {
        self.line = line
        self.time = reading.time
        self.reading = .success(reading)
    }

    /// A line that gave no reading.
    public init(line: Int, failure: LocateResult.Failure, time: Date? = nil) {
        self.line = line
        self.time = time
        self.reading = .failure(failure)
    }

    /// Decodes one line of a JSON Lines log. Empty lines, invalid UTF-8, over-long lines and
    /// invalid readings become `bad-input` failures whose message starts with `line N: `.
    /// - Parameter decoder: by default one that accepts readings without `orientation`
    ///   (location-only records).
    public init(jsonLine: Line, decoder: ReadingDecoder = ReadingDecoder(requiresOrientation: false)) {
        let n = jsonLine.number
        switch jsonLine.content {
        case .text(let text):
            do {
                self.init(line: n, reading: try decoder.decode(text))
            } catch {
                self.init(line: n, failure: .badInput(line: n, error.description))
            }
        case .invalidUTF8(let bytes):
            let at = Self.firstInvalidUTF8Offset(bytes).map { " at byte \($0 + 1)" } ?? ""
            self.init(line: n, failure: .badInput(line: n, "not valid UTF-8\(at)"))
        case .tooLong(let count):
            self.init(line: n, failure: .badInput(
                line: n, "\(count) bytes, longer than the \(Self.maximumLineLength)-byte limit of a reading line"))
        }
    }

    /// A record of an imported phone log; an import error becomes a `bad-input` failure whose
    /// message names the line (and the column, when the importer says which).
    public init(imported: ImportedRecord) {
        switch imported.result {
        case .success(let reading):
            self.init(line: imported.line, reading: reading)
            if reading.time == nil { time = imported.time }
        case .failure(let error):
            let message = error.line == nil ? "line \(imported.line): \(error.description)" : error.description
            self.init(line: imported.line, failure: LocateResult.Failure(code: .badInput, message: message),
                      time: imported.time)
        }
    }

    /// Offset of the first byte at which UTF-8 decoding fails, for the error message.
    private static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}

extension LocateResult.Failure {
    /// A `bad-input` failure for one input line: `line N: what is wrong`.
    public static func badInput(line: Int, _ message: String) -> LocateResult.Failure {
        LocateResult.Failure(code: .badInput, message: "line \(line): \(message)")
    }
}
