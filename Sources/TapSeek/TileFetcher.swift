import Foundation

/// Downloads tiles into a DEM directory so that a tile is either complete and valid or absent:
/// bytes go to `NAME.part`, which takes the tile's name only once verified — for SRTM `NAME.hgt`,
/// or `NAME.hgt.zip` for a zip; for Copernicus the bucket's own name,
/// `Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif`, which tells the catalog its heights are
/// above EGM2008. A `.part` left by an interrupted run is resumed with an HTTP
/// Range request when the server honours ranges, else downloaded again. The server's validator
/// (ETag, else Last-Modified) is kept beside it in `NAME.part.validator` and sent as `If-Range`,
/// so a file that changed on the server meanwhile comes whole instead of being spliced.
/// Gzip responses (`.hgt.gz`) are unpacked by the system's `gzip` into `NAME.hgt`.
public struct TileFetcher: Sendable {
    /// The DEM directory tiles are stored in; created when missing.
    public let directory: String
    /// Where the server keeps each tile.
    public let template: TileURLTemplate
    /// What kind of tile the server sends.
    public let source: TileSource
    /// Seconds without any byte before a request is given up.
    public let idleTimeout: TimeInterval

    /// A fetcher storing into `directory` tiles of `source` from the server `template`
    /// describes; a request with no byte for `idleTimeout` seconds fails (and leaves its `.part`
    /// to resume).
    public init(directory: String, template: TileURLTemplate, source: TileSource = .srtm, idleTimeout: TimeInterval = 60) {
        self.directory = directory
        self.template = template
        self.source = source
        self.idleTimeout = idleTimeout
    }

    /// The stored file of a tile, if the directory holds a valid one (`NAME.hgt` of a valid
    /// size, or `NAME.hgt.zip` holding one; a Copernicus GeoTIFF whose header spans the tile):
    /// its file name and size in bytes.
    public func existingFile(for tile: SRTMTileName) -> (file: String, bytes: Int64)? {
        if source == .copernicus {
            let name = copernicusFile(tile)
            guard let size = fileSize(name), CopernicusTileFile.problem(atPath: path(name), tile: tile, decoding: false) == nil else { return nil }
            return (name, size)
        }
        let hgt = "\(tile).hgt"
        if let size = fileSize(hgt), SRTMTileFile.sizeProblem(size) == nil { return (hgt, size) }
        let zip = "\(tile).hgt.zip"
        if let size = fileSize(zip), SRTMTileFile.zipProblem(atPath: path(zip), tile: tile) == nil { return (zip, size) }
        return nil
    }

    /// Makes sure the directory holds the tile: returns at once when a valid file is present,
    /// else downloads, verifies and stores it.
    /// - Parameter onEvent: progress for a display; called from a background thread.
    /// - Throws: ``TileFetchError`` naming the tile: an HTTP status other than 404, a broken
    ///   transfer (the `.part` is kept; run again to resume), a response that is not a tile, or
    ///   a directory that cannot be written.
    public func fetch(_ tile: SRTMTileName,
                      onEvent: @escaping @Sendable (TileFetchEvent) -> Void = { _ in }) async throws(TileFetchError) -> TileFetchResult {
        if let existing = existingFile(for: tile) { return .present(file: existing.file, bytes: existing.bytes) }
        try createDirectory()
        if source == .srtm, let size = fileSize("\(tile).hgt") {
            onEvent(.note(tile, "replacing \(tile).hgt: \(SRTMTileFile.sizeProblem(size) ?? "invalid")"))
        }
        let stored = copernicusFile(tile)
        if source == .copernicus, fileSize(stored) != nil {
            onEvent(.note(tile, "replacing \(stored): \(CopernicusTileFile.problem(atPath: path(stored), tile: tile, decoding: false) ?? "invalid")"))
        }
        let url = template.url(for: tile)
        let part = path(partName(tile))
        let validator = part + ".validator"
        if url.isFileURL { return try copyLocal(tile, from: url, to: part) }

        // A kept .part may come from another server or be damaged: when the resumed file fails
        // verification, it is discarded and the tile downloaded once more from the start.
        var mayRestart = true
        while true {
            let offset = fileSize(partName(tile)) ?? 0
            let ifRange = offset > 0 ? (try? String(contentsOfFile: validator, encoding: .utf8)).flatMap { $0.isEmpty ? nil : $0 } : nil
            onEvent(.requesting(tile, url: url.absoluteString, resumingAt: offset))
            let outcome = await HTTPTransfer.run(url: url, partPath: part, validatorPath: validator, offset: offset,
                                                 ifRange: ifRange, timeout: idleTimeout, maximumBytes: source.maximumFileBytes) { bytes, expected in
                onEvent(.progress(tile, bytes: bytes, expected: expected))
            }
            var transferred: Int64 = 0, resumedAt: Int64 = 0
            switch outcome {
            case .notFound:
                discardPart(tile)
                return .noTile(url: url.absoluteString)
            case .status(let code):
                throw TileFetchError(.httpStatus(code), "\(tile): HTTP \(code) from \(url.absoluteString)")
            case .failed(let message, let bytes, let expected):
                let of = expected.map { " of \($0)" } ?? ""
                throw TileFetchError(.transfer, "\(tile): download from \(url.absoluteString) broke off after \(bytes)\(of) bytes (\(message)); run again to resume")
            case .unreachable(let host, let resolved, let detail):
                let what = resolved ? "cannot reach the server: could not connect to \(host)" : "no network: could not resolve host \(host)"
                throw TileFetchError(.network, "\(tile): \(what) (\(detail)) for \(url.absoluteString); check the connection and run again")
            case .localFailure(let message):
                throw TileFetchError(.local, "\(tile): \(message)")
            case .tooLarge(let bytes):
                discardPart(tile)
                throw TileFetchError(.corrupt, "\(tile): \(url.absoluteString) sends \(bytes) bytes or more, more than any \(source.tileKind) (at most \(source.maximumFileBytes)); stopped")
            case .rangeNotSatisfiable(let total):
                if total != offset {
                    // The kept part is longer than the file: it is not a prefix of this tile.
                    discardPart(tile)
                    onEvent(.note(tile, "kept \(partName(tile)) (\(offset) bytes) does not match the server's \(total.map(String.init) ?? "unknown") bytes; starting again"))
                    guard mayRestart else { throw TileFetchError(.corrupt, "\(tile): server rejects every byte range of \(url.absoluteString)") }
                    mayRestart = false
                    continue
                }
                resumedAt = offset
            case .complete(let received, let resumed):
                transferred = received
                resumedAt = resumed
                if resumed == 0, offset > 0 {
                    onEvent(.note(tile, "server sent the whole file (it ignores byte ranges, or the file changed); downloaded \(tile) from the start"))
                }
            }
            do throws(TileFetchError) {
                let (file, bytes) = try install(tile, part: part)
                try? FileManager.default.removeItem(atPath: validator)
                return .stored(file: file, bytes: bytes, transferred: transferred, resumedAt: resumedAt)
            } catch {
                guard error.kind == .corrupt, resumedAt > 0, mayRestart else { throw error }
                onEvent(.note(tile, "resumed download is not a valid tile (\(error.description)); starting again"))
                mayRestart = false
            }
        }
    }

    // MARK: Verification and storing

    /// Verifies the complete download at `part` and gives it the tile's name. A download that
    /// is not a tile is deleted.
    private func install(_ tile: SRTMTileName, part: String) throws(TileFetchError) -> (String, Int64) {
        func reject(_ problem: String) -> TileFetchError {
            discardPart(tile)
            return TileFetchError(.corrupt, "\(tile): the server's file is not a\(source == .srtm ? "n" : "") \(source.tileKind): \(problem)")
        }
        if source == .copernicus {
            if let problem = CopernicusTileFile.problem(atPath: part, tile: tile, decoding: true) { throw reject(problem) }
            let name = copernicusFile(tile)
            let size = fileSize(partName(tile)) ?? 0
            try moveIntoPlace(part, as: name)
            return (name, size)
        }
        switch SRTMTileFile.content(ofFileAt: part) {
        case .hgt:
            let size = fileSize(partName(tile)) ?? 0
            if let problem = SRTMTileFile.sizeProblem(size) { throw reject(problem) }
            try moveIntoPlace(part, as: "\(tile).hgt")
            return ("\(tile).hgt", size)
        case .zip:
            if let problem = SRTMTileFile.zipProblem(atPath: part, tile: tile) { throw reject("zip archive \(problem)") }
            let size = fileSize(partName(tile)) ?? 0
            try moveIntoPlace(part, as: "\(tile).hgt.zip")
            return ("\(tile).hgt.zip", size)
        case .gzip:
            let unpacked = path("\(tile).hgt.part")
            do throws(TileFetchError) {
                try Gunzip.run(part, into: unpacked, limit: SRTMTileFile.maximumFileBytes)
            } catch {
                try? FileManager.default.removeItem(atPath: unpacked)
                if error.kind == .corrupt { throw reject(error.description) }
                throw TileFetchError(.local, "\(tile): \(error.description)")
            }
            let size = fileSize("\(tile).hgt.part") ?? 0
            if let problem = SRTMTileFile.sizeProblem(size) {
                try? FileManager.default.removeItem(atPath: unpacked)
                throw reject("unpacked gzip has \(problem)")
            }
            try moveIntoPlace(unpacked, as: "\(tile).hgt")
            try? FileManager.default.removeItem(atPath: part)
            return ("\(tile).hgt", size)
        }
    }

    /// A `file:` template: copy, then verify like a download (no resuming needed locally).
    private func copyLocal(_ tile: SRTMTileName, from url: URL, to part: String) throws(TileFetchError) -> TileFetchResult {
        guard FileManager.default.fileExists(atPath: url.path) else { return .noTile(url: url.absoluteString) }
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw TileFetchError(.corrupt, "\(tile): \(url.path) is not a regular file")
        }
        if let size = (attributes?[.size] as? NSNumber)?.int64Value, size > source.maximumFileBytes {
            throw TileFetchError(.corrupt, "\(tile): \(url.path) has \(size) bytes, more than any \(source.tileKind) (at most \(source.maximumFileBytes))")
        }
        try? FileManager.default.removeItem(atPath: part)
        do {
            try FileManager.default.copyItem(atPath: url.path, toPath: part)
        } catch {
            throw TileFetchError(.local, "\(tile): cannot copy \(url.path) to \(part): \(error.localizedDescription)")
        }
        let (file, bytes) = try install(tile, part: part)
        return .stored(file: file, bytes: bytes, transferred: bytes, resumedAt: 0)
    }

    /// Removes a download in progress and its validator: the next request starts from byte 0.
    private func discardPart(_ tile: SRTMTileName) {
        try? FileManager.default.removeItem(atPath: path(partName(tile)))
        try? FileManager.default.removeItem(atPath: path(partName(tile) + ".validator"))
    }

    /// A Copernicus tile's stored name: the bucket's, `Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif`.
    private func copernicusFile(_ tile: SRTMTileName) -> String { "\(source.baseName(of: tile)).tif" }

    /// The download in progress: `N27E086.part`, `Copernicus_DSM_COG_10_N46_00_E008_00_DEM.part`.
    private func partName(_ tile: SRTMTileName) -> String { "\(source.baseName(of: tile)).part" }

    private func createDirectory() throws(TileFetchError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw TileFetchError(.local, "cannot create DEM directory \(directory): \(error.localizedDescription)")
        }
    }

    /// Atomic replace (rename(2)): readers see the old file or the new one, never a mixture.
    private func moveIntoPlace(_ source: String, as name: String) throws(TileFetchError) {
        let target = path(name)
        guard rename(source, target) == 0 else {
            let reason = String(cString: strerror(errno))
            throw TileFetchError(.local, "cannot rename \(source) to \(target): \(reason)")
        }
    }

    private func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    private func fileSize(_ name: String) -> Int64? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path(name)),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }
}
