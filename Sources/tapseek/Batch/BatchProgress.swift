import Foundation

/// The live progress line of a long run on stderr (`batch`, `report`, `photo`, `locate
/// --uncertainty`): items done so far, rate and, when the work's size is known, percentage and
/// ETA. Drawn only when stderr is a terminal, so that logs and pipes get the summary line alone.
struct BatchProgress {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let totalBytes: Int?
    /// What is counted, in the singular ("result", "sample").
    private let noun: String
    private let start = ContinuousClock.now
    /// The first line waits an interval too: a batch done sooner shows none, and the rate
    /// shown is not the start-up's.
    private var lastDrawn: ContinuousClock.Instant
    private var shown = false

    /// Four redraws a second: smooth enough to read, and rare enough to cost nothing.
    private static let interval = Duration.milliseconds(250)
    private static let barWidth = 24

    /// `totalBytes`: the size of the work in the unit `update` is given `bytes` in (input bytes,
    /// or items when the count is known); nil when unknown.
    init(totalBytes: Int?, counting noun: String = "result") {
        self.totalBytes = totalBytes
        self.noun = noun
        lastDrawn = start
    }

    /// Seconds since the batch started.
    var elapsed: Double { (ContinuousClock.now - start).seconds }

    /// Redraws the line if the interval has passed.
    mutating func update(results: Int, bytes: Int) {
        guard isTerminal else { return }
        let now = ContinuousClock.now
        if now - lastDrawn < Self.interval { return }
        lastDrawn = now
        let seconds = max((now - start).seconds, 1e-3)
        var text = "\(Self.counted(results, noun))  \(Int((Double(results) / seconds).rounded()))/s"
        if let totalBytes, totalBytes > 0 {
            let fraction = min(Double(bytes) / Double(totalBytes), 1)
            let filled = Int((fraction * Double(Self.barWidth)).rounded(.down))
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: Self.barWidth - filled)
            text = "[\(bar)] \(Int((fraction * 100).rounded(.down)))%  " + text
            if fraction > 0 {
                text += "  ETA " + Self.clock(seconds * (1 - fraction) / fraction)
            }
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
        shown = true
    }

    /// Clears the live line so that the summary starts on a clean one.
    mutating func clear() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        shown = false
    }

    /// "1 result", "2 results": a count and its noun, plural unless one.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `m:ss`, or `h:mm:ss` from an hour.
    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        let (h, m, r) = (s / 3600, s / 60 % 60, s % 60)
        return h > 0 ? String(format: "%d:%02d:%02d", h, m, r) : String(format: "%d:%02d", m, r)
    }
}

private extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
