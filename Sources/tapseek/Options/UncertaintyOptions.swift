import ArgumentParser
import TapSeek

/// `--uncertainty`, `--samples`, `--seed`: what `locate` and `batch` share for sampling sensor errors.
struct UncertaintyOptions: ParsableArguments {
    @Flag(help: "Sample the reading's sensor errors and say how far to trust the target (\"uncertainty\" in the result).")
    var uncertainty = false

    @Option(help: "Samples for --uncertainty (default: 1000; at most 100000).")
    var samples: Int?

    @Option(help: "Seed for --uncertainty: the same seed gives the same answer (default: 1).")
    var seed: UInt64?

    /// The most samples a reading may ask for: time grows about linearly with the samples
    /// (README, Uncertainty), and beyond this a run takes minutes per reading while the regions
    /// no longer change visibly.
    static let samplesRange = 1...100_000

    func validate() throws {
        if let samples, !Self.samplesRange.contains(samples) {
            throw ValidationError("--samples must be within \(Self.samplesRange.lowerBound)…\(Self.samplesRange.upperBound), got \(samples)")
        }
        if !uncertainty, samples != nil || seed != nil {
            throw ValidationError("\(samples != nil ? "--samples" : "--seed") needs --uncertainty")
        }
    }

    /// The sampling asked for, or nil without --uncertainty.
    var settings: TargetUncertainty.Settings? {
        uncertainty ? TargetUncertainty.Settings(samples: samples ?? TargetUncertainty.Settings.defaultSamples, seed: seed ?? 1) : nil
    }
}
