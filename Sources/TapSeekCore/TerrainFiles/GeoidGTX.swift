extension Geoid {
    /// Where Debian's `proj-data` installs the EGM96 15′ undulation grid.
    public static let defaultPath = "/usr/share/proj/egm96_15.gtx"

    /// Loads an EGM96 undulation grid in GTX format (PROJ's `egm96_15.gtx`) without GDAL: the
    /// file is mapped and its posts read in place (``grid`` is made only when asked for).
    /// - Throws: ``TerrainFileError`` when the file cannot be read or its header and size disagree.
    public init(gtxContentsOf path: String = Geoid.defaultPath) throws(TerrainFileError) {
        let posts = try GTXPosts(path: path)
        let layout = posts.layout
        self.init(storage: .file(posts), north: layout.north, west: layout.west, latitudeSpacing: layout.latitudeSpacing,
                  longitudeSpacing: layout.longitudeSpacing, rows: layout.rows, columns: layout.columns)
    }
}

/// A GTX file kept mapped for a ``Geoid`` that reads its posts in place (``GTXGrid/post(_:row:column:rows:columns:width:)``),
/// and its grid made from them once, when first asked for.
@usableFromInline final class GTXPosts: @unchecked Sendable {
    let path: String
    let layout: GTXGrid.Layout
    private let file: MappedFile
    /// The first post (the byte after the header), and the posts' width (``Geoid`` reads them).
    let data: UnsafeRawPointer
    let width: Int
    private let made = Locked<ElevationGrid?>(nil)

    init(path: String) throws(TerrainFileError) {
        do {
            file = try MappedFile(path: path)
        } catch {
            throw TerrainFileError(path: path, message: "cannot be opened (\(error.message))")
        }
        guard file.bytes.count <= GTXGrid.byteLimit else {
            throw TerrainFileError(path: path, message: "holds \(file.bytes.count) bytes, more than the \(GTXGrid.byteLimit) a file of its kind may have")
        }
        self.path = path
        layout = try GTXGrid.layout(bytes: file.bytes, path: path)
        data = file.bytes.baseAddress! + GTXGrid.headerLength
        width = layout.width
    }

    /// What identifies the file's contents on disk (``MappedFile/identity``).
    var identity: String { file.identity }

    /// The whole grid, as ``GTXGrid/readGrid(path:)`` reads it.
    var grid: ElevationGrid {
        made.withLock { made in
            if let made { return made }
            // The layout was checked when the file was mapped.
            let grid = try! GTXGrid.grid(bytes: file.bytes, path: path)
            made = grid
            return grid
        }
    }
}
