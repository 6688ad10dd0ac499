import Foundation

/// Carries the calibration of a reading with skyline or landmark pixels over to the readings
/// after it in the same log, until the next such reading: a phone compass's bias drifts slowly
/// (over tens of minutes), so one traced photo corrects the taps around it.
///
/// Feed it every record of a log in order. A reading that calibrates itself gets nothing (it is
/// calibrated when it is located, in parallel with the others) and becomes the source for the
/// records after it, whose calibration is computed here, once, when the first of them comes. A
/// source whose calibration is refused leaves the earlier calibration in force.
public struct CalibrationCarry: Sendable {
    public let locator: Locator
    private var pending: (line: Int, reading: Reading)?
    /// The calibration in force for records without pixels of their own.
    public private(set) var current: Calibration?
    private var terrain: TerrainSampler

    public init(locator: Locator) {
        self.locator = locator
        terrain = TerrainSampler(catalog: locator.catalog)
    }

    /// The calibration carried onto the record of `line` whose reading is `reading` (nil: none,
    /// or a line that did not decode).
    public mutating func calibration(forLine line: Int, reading: Reading?) -> Calibration? {
        if let reading, reading.canCalibrate, reading.orientation != nil {
            pending = (line, reading)
            return nil
        }
        if let source = pending {
            pending = nil
            if var c = try? locator.calibrate(source.reading, jobs: 1, terrain: &terrain) {
                c.carriedFrom = source.line
                c.warnings = []
                current = c
            }
        }
        return current
    }

    /// Sets the carried calibration of each record, in order.
    public mutating func carry(into records: inout [BatchRecord]) {
        for i in records.indices {
            records[i].carriedCalibration = calibration(forLine: records[i].line, reading: try? records[i].reading.get())
        }
    }
}
