import ArgumentParser
import TapSeek

/// `--uncertainty`, `--samples`, `--seed`: what `locate` and `batch` share for sampling sensor errors.
struct UncertaintyOptions: ParsableArguments {
    @Flag(help: "Sample the reading's sensor errors and say how far to trust the target (\"uncertainty\" in the result).")
    var uncertainty = false

    @Option(help: "Samples for --uncertainty.")
    var samples: Int = TargetUncertainty.Settings.defaultSamples

    @Option(help: "Seed for --uncertainty: the same seed gives the same answer.")
    var seed: UInt64 = 1

    /// The most samples a reading may ask for.
    static let samplesRange = 1...1_000_000

    func validate() throws {
        guard Self.samplesRange.contains(samples) else {
            throw ValidationError("--samples must be within \(Self.samplesRange.lowerBound)…\(Self.samplesRange.upperBound), got \(samples)")
        }
    }

    /// The sampling asked for, or nil without --uncertainty.
    var settings: TargetUncertainty.Settings? { uncertainty ? TargetUncertainty.Settings(samples: samples, seed: seed) : nil }
}
