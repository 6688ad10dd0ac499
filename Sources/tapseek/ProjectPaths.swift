import Foundation

/// Where the project's own data lives when no flag or environment variable says otherwise:
/// folders of the source tree this binary was built from.
enum ProjectPaths {
    /// The repository's root, three levels above this file (`Sources/tapseek/ProjectPaths.swift`).
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    /// The default DEM directory: `$TAPSEEK_DEM`, else the project's `dem/`.
    static var demDirectory: String {
        if let env = ProcessInfo.processInfo.environment["TAPSEEK_DEM"], !env.isEmpty { return env }
        return root + "/dem"
    }
}
