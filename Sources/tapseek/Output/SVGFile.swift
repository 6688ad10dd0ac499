import Foundation

/// Writing a picture the user asked for with an option (`--plot`, `--svg`).
enum SVGFile {
    /// Writes `svg` to `path`, or fails with one line naming the option and the reason.
    static func write(_ svg: String, to path: String, option: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw InputError("\(option) \(path): no such folder \(folder)")
        }
        do {
            try Data(svg.utf8).write(to: url)
        } catch {
            throw InputError("\(option) \(path): cannot be written (permissions, or a folder of that name?)")
        }
    }
}
