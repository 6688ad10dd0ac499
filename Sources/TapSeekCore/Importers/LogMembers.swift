import Foundation

/// The files of a multi-file export (a Sensor Logger or phyphox folder, or its zip), opened by
/// name so that importers need not know where the bytes come from.
public protocol LogMembers {
    /// Paths of the regular files, relative to the export's root, `/`-separated.
    var memberNames: [String] { get }
    /// Streams one member's lines.
    /// - Throws: `.unreadable` naming the member when it cannot be opened.
    func lines(of name: String) throws(ImportError) -> LineReader
}

extension LogMembers {
    /// The member whose file name is `fileName` (ignoring case), in `folder` (e.g. `"meta"`) when
    /// given; the shallowest wins, so an export zipped inside a top-level folder still reads.
    public func member(named fileName: String, in folder: String? = nil) -> String? {
        let wanted = fileName.lowercased(), wantedFolder = folder?.lowercased()
        return memberNames
            .filter { name in
                let parts = name.lowercased().split(separator: "/")
                guard parts.last.map(String.init) == wanted else { return false }
                guard let wantedFolder else { return true }
                return parts.count >= 2 && String(parts[parts.count - 2]) == wantedFolder
            }
            .min { $0.split(separator: "/").count < $1.split(separator: "/").count }
    }
}

/// An export unpacked into a directory: its files down to ``maximumDepth`` levels.
public struct DirectoryMembers: LogMembers, Sendable {
    /// The export root and two levels of folders below it (phyphox's `meta/`, a top folder).
    public static let maximumDepth = 3

    /// The export folder's path.
    public let root: String
    /// The files found, relative to ``root``, sorted.
    public let memberNames: [String]

    /// Lists the directory at `path`.
    /// - Throws: `.unreadable` when it cannot be listed.
    public init(path: String) throws(ImportError) {
        root = path
        var names: [String] = []
        func walk(_ relative: String, depth: Int) throws(ImportError) {
            let directory = relative.isEmpty ? path : path + "/" + relative
            let entries: [String]
            do { entries = try FileManager.default.contentsOfDirectory(atPath: directory) } catch {
                throw ImportError(.unreadable, "cannot list \(directory): \(error.localizedDescription)")
            }
            for entry in entries.sorted() {
                let name = relative.isEmpty ? entry : relative + "/" + entry
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory) else { continue }
                if isDirectory.boolValue {
                    if depth + 1 < Self.maximumDepth { try walk(name, depth: depth + 1) }
                } else {
                    names.append(name)
                }
            }
        }
        try walk("", depth: 0)
        memberNames = names
    }

    /// Streams the lines of the member file `name`.
    public func lines(of name: String) throws(ImportError) -> LineReader {
        do { return try LineReader(path: root + "/" + name) } catch { throw ImportError(error) }
    }
}
