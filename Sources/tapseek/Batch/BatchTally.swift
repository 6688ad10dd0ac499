import TapSeek

/// Results counted by status and error code, for the summary `tapseek batch` prints on stderr.
struct BatchTally: Sendable {
    private(set) var total = 0
    private(set) var byStatus: [String: Int] = [:]
    private(set) var byErrorCode: [String: Int] = [:]

    mutating func count(_ result: LocateResult) {
        total += 1
        byStatus[result.status.rawValue, default: 0] += 1
        if let code = result.error?.code.rawValue { byErrorCode[code, default: 0] += 1 }
    }

    mutating func merge(_ other: BatchTally) {
        total += other.total
        byStatus.merge(other.byStatus, uniquingKeysWith: +)
        byErrorCode.merge(other.byErrorCode, uniquingKeysWith: +)
    }

    /// `1000 hit, 20 horizon, 3 error (2 bad-input, 1 outside-dem)`: statuses in the
    /// interface's order (any others after them, alphabetically), error codes by count.
    var summary: String {
        guard total > 0 else { return "no readings" }
        let known = ["hit", "horizon", "location", "error"]
        let order = known.filter { byStatus[$0] != nil } + byStatus.keys.filter { !known.contains($0) }.sorted()
        return order.map { status in
            var part = "\(byStatus[status]!) \(status)"
            if status == "error", !byErrorCode.isEmpty {
                let codes = byErrorCode.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                part += " (" + codes.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
            }
            return part
        }.joined(separator: ", ")
    }
}
