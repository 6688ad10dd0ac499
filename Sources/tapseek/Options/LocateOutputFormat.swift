import ArgumentParser

/// What `tapseek locate` prints (batch's `--format` names its input format instead).
enum LocateOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case json, geojson
}
