import Foundation
import TapSeekTestSupport
import Testing

/// `tapseek locate --format geojson` run end to end: the output parsed as JSON and checked
/// against RFC 7946 (a FeatureCollection, longitude first, ellipsoidal heights, no `crs`), against
/// the result JSON of the same reading, and against independent tools (PROJ's `cs2cs` for the
/// geoid, GDAL's `ogrinfo` as a reader).
@Suite struct LocateGeoJSONTests {
    /// The interface's example reading: the Eiger seen from Grindelwald (shared N46E008 tile).
    static let eiger = """
        {"id":"eiger","time":"2026-07-14T09:31:05Z",
         "location":{"latitude":46.6240,"longitude":8.0410,"altitude":1034.0,"altitudeReference":"msl"},
         "orientation":{"heading":208.0,"headingReference":"true","pitch":26.0,"roll":0.0},
         "camera":{"horizontalFOV":63.7,"zoom":1.0,"imageWidth":4032,"imageHeight":3024},"tap":{"x":2016,"y":1512}}
        """
    static let eigerTile = SharedData.dem.appendingPathComponent("N46E008.tif")

    static func locate(_ reading: String, _ arguments: [String]) throws -> CLIRunner.Result {
        try CLIRunner.run(["locate", "-"] + arguments, stdin: reading, environment: ["GDAL_PAM_ENABLED": "NO"])
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    static func features(_ collection: [String: Any]) throws -> [[String: Any]] {
        try #require(collection["features"] as? [[String: Any]])
    }

    static func feature(_ role: String, in collection: [String: Any]) throws -> [String: Any] {
        try #require(features(collection).first { ($0["properties"] as? [String: Any])?["role"] as? String == role },
                     "no \(role) feature")
    }

    static func coordinates(_ feature: [String: Any]) throws -> Any {
        let geometry = try #require(feature["geometry"] as? [String: Any])
        return try #require(geometry["coordinates"])
    }

    static func position(_ any: Any) throws -> [Double] {
        try #require(any as? [Double], "not a position: \(any)")
    }

    /// The EGM96 undulation by PROJ: `cs2cs` from WGS84 3-D to WGS84 + EGM96 height gives −N
    /// for a point on the ellipsoid.
    static func undulation(latitude: Double, longitude: Double) throws -> Double {
        let output = try SharedData.capture("cs2cs", ["-f", "%.4f", "EPSG:4979", "EPSG:4326+5773"],
                                            input: "\(latitude) \(longitude) 0\n")
        let height = try #require(output.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).last.flatMap { Double($0) },
                                  "cs2cs said: \(output)")
        return -height
    }

    /// Every position of every geometry, checked for RFC 7946's shape on the way.
    static func allPositions(_ collection: [String: Any]) throws -> [[Double]] {
        var positions: [[Double]] = []
        for feature in try features(collection) {
            #expect(feature["type"] as? String == "Feature")
            #expect(feature["properties"] is [String: Any])
            guard let geometry = feature["geometry"] as? [String: Any] else { continue }
            let coordinates = try #require(geometry["coordinates"])
            switch geometry["type"] as? String {
            case "Point": positions.append(try position(coordinates))
            case "LineString": positions += try #require(coordinates as? [Any]).map(position)
            case "MultiLineString":
                for line in try #require(coordinates as? [Any]) {
                    let part = try #require(line as? [Any]).map(position)
                    #expect(part.count >= 2, "a LineString needs two positions")
                    positions += part
                }
            case let other: Issue.record("unexpected geometry type \(String(describing: other))")
            }
        }
        return positions
    }

    // MARK: The Eiger

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func featureCollectionHoldsTheAnswerThePointsAndTheLines() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        let run = try Self.locate(Self.eiger, ["--dem", SharedData.dem.path, "--format", "geojson"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("}\n") && run.stdout.filter { $0 == "\n" }.count == 1, "one line")
        let collection = try Self.object(run.stdout)
        #expect(collection["type"] as? String == "FeatureCollection")
        #expect(collection["crs"] == nil, "RFC 7946 has no crs member")
        let roles = try Self.features(collection).map { ($0["properties"] as? [String: Any])?["role"] as? String }
        #expect(roles == ["target", "observer", "sightline", "track", "terrain"])
        for p in try Self.allPositions(collection) {
            #expect(p.count == 2 || p.count == 3, "a position is [lon, lat] or [lon, lat, height]")
            #expect((-180...180).contains(p[0]) && (-90...90).contains(p[1]), "longitude first: \(p)")
        }
        let geometryTypes = try Self.features(collection).map { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(geometryTypes == ["Point", "Point", "LineString", "LineString", "MultiLineString"])
    }

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func positionsAreLongitudeFirstAndAgreeWithTheResultJSON() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        let geo = try Self.object(try Self.locate(Self.eiger, ["--dem", SharedData.dem.path, "--format", "geojson"]).stdout)
        let json = try Self.object(try Self.locate(Self.eiger, ["--dem", SharedData.dem.path]).stdout)
        let target = try #require(json["target"] as? [String: Double])
        let observer = try #require(json["observer"] as? [String: Any])

        let t = try Self.position(try Self.coordinates(try Self.feature("target", in: geo)))
        #expect(abs(t[0] - target["longitude"]!) < 1e-7 && abs(t[1] - target["latitude"]!) < 1e-7)
        let o = try Self.position(try Self.coordinates(try Self.feature("observer", in: geo)))
        #expect(abs(o[0] - (observer["longitude"] as! Double)) < 1e-7 && abs(o[1] - (observer["latitude"] as! Double)) < 1e-7)

        // The track is the result's polyline, decoded by the CLI's own decoder as [lat, lon].
        let polyline = try #require((json["profile"] as? [String: Any])?["polyline"] as? String)
        let decoded = try CLIRunner.run(["polyline", "decode", "--precision", "6", polyline])
        let latLon = try #require(JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [[Double]])
        let track = try #require(try Self.coordinates(try Self.feature("track", in: geo)) as? [Any]).map(Self.position)
        #expect(track.count == latLon.count)
        for (g, p) in zip(track, latLon) {
            #expect(g.count == 2)
            #expect(abs(g[0] - p[1]) <= 1e-6 && abs(g[1] - p[0]) <= 1e-6, "track [lon, lat] \(g) vs polyline [lat, lon] \(p)")
        }
        // The line of sight runs from the eye to the target.
        let sightline = try #require(try Self.coordinates(try Self.feature("sightline", in: geo)) as? [Any]).map(Self.position)
        #expect(sightline.count == 2 && sightline[0] == o && sightline[1] == t)
    }

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func heightsAreAboveTheEllipsoidAsRFC7946Prescribes() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        let geo = try Self.object(try Self.locate(Self.eiger, ["--dem", SharedData.dem.path, "--format", "geojson"]).stdout)
        let targetFeature = try Self.feature("target", in: geo)
        let properties = try #require(targetFeature["properties"] as? [String: Any])
        let t = try Self.position(try Self.coordinates(targetFeature))
        let elevation = try #require(properties["elevation"] as? Double)
        // About 50.3 m of EGM96 undulation over the Bernese Alps.
        let nTarget = try Self.undulation(latitude: t[1], longitude: t[0])
        #expect(abs(t[2] - (elevation + nTarget)) <= 0.02, "target height \(t[2]) vs \(elevation) + N \(nTarget)")

        let observerFeature = try Self.feature("observer", in: geo)
        let o = try Self.position(try Self.coordinates(observerFeature))
        let altitude = try #require((observerFeature["properties"] as? [String: Any])?["altitude"] as? Double)
        #expect(abs(o[2] - (altitude + (try Self.undulation(latitude: o[1], longitude: o[0])))) <= 0.02)

        // Terrain heights: the elevation service's height and undulation at the same points.
        let parts = try #require(try Self.coordinates(try Self.feature("terrain", in: geo)) as? [[Any]])
        let terrain = try parts.flatMap { try $0.map(Self.position) }
        #expect(terrain.count > 20)
        for p in [terrain[1], terrain[terrain.count / 2], terrain[terrain.count - 2]] {
            let service = try Self.object(try CLIRunner.run(["elevation", "\(p[1])", "\(p[0])", "--dem", SharedData.dem.path]).stdout)
            let h = try #require(service["elevation"] as? Double), n = try #require(service["geoidUndulation"] as? Double)
            #expect(abs(p[2] - (h + n)) <= 0.02, "terrain at \(p): \(h) + \(n)")
        }
    }

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func targetPropertiesCarryTheResultFields() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        let geo = try Self.object(try Self.locate(Self.eiger, ["--dem", SharedData.dem.path, "--format", "geojson"]).stdout)
        let json = try Self.object(try Self.locate(Self.eiger, ["--dem", SharedData.dem.path]).stdout)
        let p = try #require(try Self.feature("target", in: geo)["properties"] as? [String: Any])
        let target = try #require(json["target"] as? [String: Double])
        let sightline = try #require(json["sightline"] as? [String: Double])
        #expect(p["id"] as? String == "eiger")
        #expect(p["status"] as? String == "hit")
        #expect(p["time"] as? String == json["time"] as? String)
        for key in ["elevation", "distance", "slantRange"] { #expect(p[key] as? Double == target[key], "\(key)") }
        for key in ["azimuth", "elevationAngle", "refraction"] { #expect(p[key] as? Double == sightline[key], "\(key)") }
        #expect(p["warnings"] as? [String] == json["warnings"] as? [String])
        #expect((p["warningCodes"] as? [String] ?? json["warningCodes"] as? [String])?.contains("filled-void") == true, "the Eiger sightline hits its filled north face")
        #expect((p["placemark"] as? [String: AnyHashable]) == (json["placemark"] as? [String: AnyHashable]))
        #expect(p["error"] == nil)
    }

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func gdalReadsTheCollectionAsFiveFeatures() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        let run = try Self.locate(Self.eiger, ["--dem", SharedData.dem.path, "--format", "geojson"])
        let folder = try SharedData.temporaryDirectory("geojson")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("eiger.geojson")
        try Data(run.stdout.utf8).write(to: file)
        let info = try SharedData.capture("ogrinfo", ["-ro", "-al", "-so", "--config", "GDAL_PAM_ENABLED", "NO", file.path], input: "")
        #expect(info.contains("using driver `GeoJSON' successful"), "\(info)")
        #expect(info.contains("Feature Count: 5"), "\(info)")
    }

    // MARK: Synthetic terrain across the antimeridian

    /// Two tiles either side of 180°, 1/120° posts, −16.75…−17.25°: a plain at 100 m with void
    /// posts at 179.85…179.90° E (columns 42…48 of the western tile) and a 500 m plateau from
    /// 179.8° W (column 24 of the eastern tile). Looking due east from 179.8° E the ray crosses
    /// the void and the antimeridian and hits the plateau's edge.
    static let spacing = 1.0 / 120
    static let voidColumns = 42...48, plateauColumn = 24
    static func antimeridianScene(in folder: URL) throws {
        let rows = 61, columns = 61
        let west = (0..<rows).flatMap { _ in (0..<columns).map { voidColumns.contains($0) ? Float.nan : 100 } }
        let east = (0..<rows).flatMap { _ in (0..<columns).map { $0 >= plateauColumn ? Float(500) : 100 } }
        _ = try SyntheticTerrain.writeGeoTIFF(north: -16.75, west: 179.5, spacing: spacing, rows: rows, columns: columns,
                                              heights: west, name: "west", in: folder)
        _ = try SyntheticTerrain.writeGeoTIFF(north: -16.75, west: -180, spacing: spacing, rows: rows, columns: columns,
                                              heights: east, name: "east", in: folder)
    }
    static let eastward = #"{"id":"east","location":{"latitude":-17.0,"longitude":179.8},"orientation":{"heading":90,"pitch":0}}"#

    @Test func linesCrossingTheAntimeridianAreCutThere() throws {
        let folder = try SharedData.temporaryDirectory("antimeridian")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.antimeridianScene(in: folder)
        let run = try Self.locate(Self.eastward, ["--dem", folder.path, "--format", "geojson"])
        #expect(run.status == 0, "\(run.stderr)")
        let geo = try Self.object(run.stdout)
        let t = try Self.position(try Self.coordinates(try Self.feature("target", in: geo)))
        #expect(t[0] > -179.81 && t[0] < -179.79, "hit at the plateau's edge, west longitude: \(t)")

        for role in ["sightline", "track", "terrain"] {
            let feature = try Self.feature(role, in: geo)
            let geometry = try #require(feature["geometry"] as? [String: Any])
            #expect(geometry["type"] as? String == "MultiLineString", "\(role) is cut")
            let parts = try #require(geometry["coordinates"] as? [[Any]]).map { try $0.map(Self.position) }
            // Each cut ends a part on +180 and starts the next on −180 at the same latitude.
            let cuts = zip(parts, parts.dropFirst()).filter { $0.0.last?[0] == 180 }
            #expect(cuts.count == 1, "\(role): one cut at the antimeridian")
            for (a, b) in cuts {
                #expect(b.first?[0] == -180 && a.last?[1] == b.first?[1], "\(role): the cut is continuous")
            }
            for part in parts {
                for (p, q) in zip(part, part.dropFirst()) { #expect(abs(p[0] - q[0]) < 1, "\(role): no segment spans the globe") }
            }
        }
    }

    @Test func voidsEndTheTerrainLine() throws {
        let folder = try SharedData.temporaryDirectory("void")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.antimeridianScene(in: folder)
        let geo = try Self.object(try Self.locate(Self.eastward, ["--dem", folder.path, "--format", "geojson", "--no-fill-voids"]).stdout)
        let parts = try #require(try Self.coordinates(try Self.feature("terrain", in: geo)) as? [[Any]]).map { try $0.map(Self.position) }
        // Before the void, after it up to 180°, and past 180°.
        #expect(parts.count == 3)
        guard parts.count == 3 else { return }
        let beforeVoid = try #require(parts[0].last?[0]), afterVoid = try #require(parts[1].first?[0])
        // A bilinear height needs its four posts: known terrain ends at the last post before the
        // void and resumes at the first after it, give or take one 10 m step (1e-4°).
        let lastKnownPost = 179.5 + Double(Self.voidColumns.lowerBound - 1) * Self.spacing
        let firstKnownPost = 179.5 + Double(Self.voidColumns.upperBound + 1) * Self.spacing
        #expect(beforeVoid <= lastKnownPost + 1e-7 && beforeVoid > lastKnownPost - 1e-4, "terrain before the void ends at \(beforeVoid)")
        #expect(afterVoid >= firstKnownPost - 1e-7 && afterVoid < firstKnownPost + 1e-4, "terrain after the void starts at \(afterVoid)")
        // The plain is 100 m above the geoid: its heights above the ellipsoid are 100 + N.
        let n = try Self.undulation(latitude: -17, longitude: 179.8)
        for p in parts[0] { #expect(abs(p[2] - (100 + n)) < 0.5, "plain at \(p)") }
    }

    // MARK: Errors and usage

    /// A reading that cannot be located is a collection whose one Feature has no geometry and
    /// the error, exit 1, nothing on stderr (before issue 29 the message went to stderr too).
    @Test func errorIsAnUnlocatedFeatureWithTheError() throws {
        let folder = try SharedData.temporaryDirectory("error")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.antimeridianScene(in: folder)
        let reading = #"{"id":"nowhere","location":{"latitude":0.5,"longitude":0.5},"orientation":{"heading":90,"pitch":0}}"#
        let run = try Self.locate(reading, ["--dem", folder.path, "--format", "geojson"])
        #expect(run.status == 1)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        let geo = try Self.object(run.stdout)
        #expect(geo["type"] as? String == "FeatureCollection")
        let answer = try #require(try Self.features(geo).first)
        #expect(answer["geometry"] is NSNull, "RFC 7946 §3.2: geometry null for an unlocated feature")
        let p = try #require(answer["properties"] as? [String: Any])
        #expect(p["status"] as? String == "error" && p["id"] as? String == "nowhere")
        let error = try #require(p["error"] as? [String: String])
        #expect(error["code"] == "outside-dem" && error["message"]?.contains("outside the DEM") == true)
    }

    @Test func unknownFormatIsBadUsage() throws {
        let run = try Self.locate(Self.eastward, ["--format", "kml"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("--format"))
        #expect(run.stdout.isEmpty)
    }
}
