import Foundation

/// phyphox's `meta/time.csv`: when the experiment ran, to turn its relative times into dates.
///
/// phyphox stamps samples with "experiment time", seconds since the experiment started, which
/// stands still while the experiment is paused. Each `START` event pairs an experiment time with
/// the UNIX "system time" at which measuring (re)started; a sample belongs to the last `START`
/// at or before its experiment time.
public struct PhyphoxTimeline: Sendable, Hashable {
    /// One START event: measuring (re)started at `systemTime` (UNIX seconds) when the experiment
    /// clock read `experimentTime` (seconds).
    public struct Start: Sendable, Hashable {
        /// Experiment clock, seconds.
        public var experimentTime: Double
        /// UNIX time, seconds.
        public var systemTime: Double
    }

    /// The START events, sorted by experiment time.
    public private(set) var starts: [Start]

    /// Reads `meta/time.csv` (columns `event`, `experiment time`, `system time`).
    /// - Throws: `.unsupportedLog` when the columns or a START event are missing, naming the line
    ///   of a bad row.
    public init(lines: LineReader) throws(ImportError) {
        var rows = try CSVRows(lines: lines, expected: "phyphox time columns event, experiment time, system time") { h in
            h.column("event") != nil && h.column("experiment time") != nil && h.column("system time") != nil
        }
        let event = rows.header.column("event")!, experiment = rows.header.column("experiment time")!
        let system = rows.header.column("system time")!
        var starts: [Start] = []
        while let row = try rows.next() {
            let r: CSVRow
            do throws(ImportError) { r = try row.get() } catch { throw ImportError(.unsupportedLog, line: error.line, "phyphox time file: \(error.message)") }
            guard r.text(event).uppercased() == "START" else { continue }
            do throws(ImportError) {
                starts.append(Start(experimentTime: try r.required(experiment), systemTime: try r.required(system)))
            } catch {
                throw ImportError(.unsupportedLog, line: error.line, column: error.column, "phyphox time file: \(error.message)")
            }
        }
        guard !starts.isEmpty else { throw ImportError(.unsupportedLog, "phyphox time file has no START event") }
        self.starts = starts.sorted { $0.experimentTime < $1.experimentTime }
    }

    /// The UTC date of a sample at `experimentTime` seconds.
    public func date(experimentTime t: Double) -> Date {
        Date(timeIntervalSince1970: unixSeconds(experimentTime: t))
    }

    /// The UNIX time, seconds, at experiment time `t` (possibly beyond any date a reading can
    /// carry: check it before making a date).
    public func unixSeconds(experimentTime t: Double) -> Double {
        let start = starts.last { $0.experimentTime <= t } ?? starts[0]
        return start.systemTime + (t - start.experimentTime)
    }
}
