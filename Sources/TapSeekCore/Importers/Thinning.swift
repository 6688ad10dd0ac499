import Foundation

/// Which readings of a dense log to keep, for `tapseek batch --every SECONDS --min-move METERS`:
/// ask again only after a while or after a significant move.
///
/// The rule, applied to the records in order:
/// - error records are always kept (each still gets its error result);
/// - the first reading is kept;
/// - a later reading is kept when **either** given criterion holds against the last reading kept:
///   - `every`: at least `every` seconds have passed (with ``timeTolerance`` for clock jitter), or
///     time ran backwards (a clock reset), or either time is unknown (nothing shows it redundant);
///   - `minMove`: its position is at least `minMove` metres from the last kept one (great-circle
///     distance on a sphere of ``earthRadius``; altitude is ignored);
/// - with neither option given, every reading is kept.
///
/// With only `minMove`, a phone that stays put yields one reading however long the log; with only
/// `every`, a fast car still yields one reading per period.
public struct Thinning: Sendable, Hashable {
    /// Seconds; nil → time alone never keeps a reading.
    public var every: Double?
    /// Metres; nil → distance alone never keeps a reading.
    public var minMove: Double?

    /// 1 ms: sample timestamps jitter by fractions of a millisecond, so a 1 Hz log must not lose
    /// a fix that arrives at 0.9999 s.
    public static let timeTolerance = 1e-3
    /// Mean Earth radius R1 = (2a + b)/3 of WGS84, metres (IUGG): the spherical distance is within
    /// 0.5 % of the geodesic one, plenty for a threshold.
    public static let earthRadius = 6_371_008.8

    /// Any values are stored; ``validated()`` rejects negative or non-finite ones.
    public init(every: Double? = nil, minMove: Double? = nil) {
        self.every = every
        self.minMove = minMove
    }

    /// Whether every reading is kept (neither option given).
    public var keepsAll: Bool { every == nil && minMove == nil }

    /// The options checked: both must be finite and ≥ 0.
    /// - Throws: an ``ImportError`` naming the option (for the CLI's usage error).
    public func validated() throws(ImportError) -> Thinning {
        if let every, !(every.isFinite && every >= 0) {
            throw ImportError(.invalidValue, column: "--every", "must be a number of seconds ≥ 0, got \(every)")
        }
        if let minMove, !(minMove.isFinite && minMove >= 0) {
            throw ImportError(.invalidValue, column: "--min-move", "must be a number of metres ≥ 0, got \(minMove)")
        }
        return self
    }

    /// The last reading kept: what later readings are compared with.
    public struct Mark: Sendable, Hashable {
        /// When it was sampled, if known.
        public var time: Date?
        /// WGS84 degrees.
        public var latitude: Double
        /// WGS84 degrees.
        public var longitude: Double
    }

    /// Decides one record and, when it is a kept reading, moves `last` to it.
    public func keep(_ record: ImportedRecord, after last: inout Mark?) -> Bool {
        guard let reading = record.reading else { return true }
        let mark = Mark(time: record.time ?? reading.time, latitude: reading.location.latitude, longitude: reading.location.longitude)
        guard let previous = last, !keepsAll else {
            last = mark
            return true
        }
        var due = false
        if let every {
            if let t = mark.time, let t0 = previous.time {
                let elapsed = t.timeIntervalSince(t0)
                due = elapsed < 0 || elapsed >= every - Self.timeTolerance
            } else {
                due = true
            }
        }
        if !due, let minMove {
            due = Self.distance(previous, mark) >= minMove
        }
        if due { last = mark }
        return due
    }

    /// Great-circle distance in metres between two marks (haversine, stable for small distances).
    static func distance(_ a: Mark, _ b: Mark) -> Double {
        let phi1 = radians(a.latitude), phi2 = radians(b.latitude)
        let dPhi = phi2 - phi1, dLambda = radians(normalizedLongitude(b.longitude - a.longitude))
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * earthRadius * asin(min(1, h.squareRoot()))
    }
}

/// A record stream with ``Thinning`` applied: the kept records, in order, with their line numbers.
public struct ThinnedRecords<Base: ImportedRecordSource>: ImportedRecordSource {
    private var base: Base
    /// The rule applied.
    public let thinning: Thinning
    private var last: Thinning.Mark?

    /// `base`'s records, thinned by `thinning`.
    public init(_ base: Base, thinning: Thinning) {
        self.base = base
        self.thinning = thinning
    }

    /// The next record kept; nil at the end.
    public mutating func next() throws(ImportError) -> ImportedRecord? {
        while let record = try base.next() {
            if thinning.keep(record, after: &last) { return record }
        }
        return nil
    }
}
