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

/// A GTX file's posts read in place from its mapping (``GTXGrid``), and its grid made from them
/// once, when first asked for.
@usableFromInline final class GTXPosts: @unchecked Sendable {
    let path: String
    let layout: GTXGrid.Layout
    private let file: MappedFile
    /// The first byte after the header, and the layout's numbers the look-ups read.
    @usableFromInline let data: UnsafeRawPointer
    @usableFromInline let rows: Int, columns: Int, width: Int
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
        rows = layout.rows
        columns = layout.columns
        width = layout.width
    }

    /// What identifies the file's contents on disk (``MappedFile/identity``).
    var identity: String { file.identity }

    /// Post (`row` from the north, `column`), NaN where missing.
    @inlinable @inline(__always) func post(row: Int, column: Int) -> Float {
        GTXGrid.post(data, row: row, column: column, rows: rows, columns: columns, width: width)
    }

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
