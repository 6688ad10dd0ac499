import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The result JSON has one writer: `LocateResult`'s `Codable` conformance. The CLI's lines must
/// equal, byte for byte, what the library's ``CompactJSONEncoder`` makes of the same results,
/// Foundation's `JSONEncoder` must give the same fields and values, and `JSONDecoder` must read
/// the lines back to results that encode to the same bytes.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct ResultEncoderAgreementTests {
    static let geocoderURL = SharedData.projectRoot.appendingPathComponent("data/build/geocoder-index.bin")

    /// A hit, a skyline, an observer-only record, a tapped pixel, a magnetic heading and two
    /// failures (outside the DEM; a field out of range), in the Bernese Alps and on Everest.
    static let readings = [
        #"{"id":"eiger","time":"2026-07-14T09:30:00Z","location":{"latitude":46.6240,"longitude":8.0410,"horizontalAccuracy":5},"orientation":{"heading":210,"pitch":11,"headingAccuracy":2,"pitchAccuracy":0.5}}"#,
        #"{"id":"sky","location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":30,"pitch":25}}"#,
        #"{"id":"stand","location":{"latitude":27.9881,"longitude":86.9250}}"#,
        #"{"location":{"latitude":27.95,"longitude":86.85,"altitude":5600},"orientation":{"heading":80,"pitch":5,"roll":2,"headingReference":"magnetic"},"camera":{"horizontalFOV":60,"imageWidth":1000,"imageHeight":750},"tap":{"x":600,"y":300}}"#,
        #"{"id":"far","location":{"latitude":10,"longitude":10},"orientation":{"heading":0,"pitch":0}}"#,
        #"{"id":"tilted","location":{"latitude":46.6,"longitude":8.0},"orientation":{"heading":0,"pitch":120}}"#,
    ]

    @Test func cliLinesAreTheLibraryEncoding() throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        let cli = try CLIRunner.run(["batch", "-", "--dem", SharedData.dem.path, "--uncertainty", "--samples", "60", "--seed", "5", "--jobs", "1"],
                                    stdin: Self.readings.joined(separator: "\n") + "\n",
                                    environment: ["TAPSEEK_GEOCODER": Self.geocoderURL.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let lines = cli.stdout.split(separator: "\n").map(String.init)
        try #require(lines.count == Self.readings.count)

        let geocoder = try? Geocoder(contentsOf: Self.geocoderURL)
        let locator = Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid(),
                              placemarks: geocoder.map { g in { @Sendable lat, lon in try? g.placemark(latitude: lat, longitude: lon) } })
        var statuses: Set<LocateResult.Status> = []
        for (n, text) in Self.readings.enumerated() {
            let line = lines[n]
            guard let reading = try? ReadingDecoder(requiresOrientation: false).decode(text) else {
                // Refused by the decoder, which the batch command's own tests cover.
                #expect(line.contains(#""code":"bad-input""#), "line \(n + 1)")
                continue
            }
            var result = locator.locate(reading, uncertainty: .init(samples: 60, seed: 5), jobs: 1)
            result.line = n + 1
            statuses.insert(result.status)

            let compact = String(decoding: try CompactJSONEncoder().encode(result), as: UTF8.self)
            #expect(compact == line, "line \(n + 1)")

            let foundation = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(result)) as? NSDictionary
            let written = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? NSDictionary
            #expect(foundation == written, "line \(n + 1): JSONEncoder gives other fields or values")

            let decoded = try JSONDecoder().decode(LocateResult.self, from: Data(line.utf8))
            #expect(String(decoding: try CompactJSONEncoder().encode(decoded), as: UTF8.self) == line, "line \(n + 1) read back")
        }
        #expect(statuses.isSuperset(of: [.hit, .horizon, .location, .error]), "the readings cover every status: \(statuses)")
        #expect(lines[0].contains("\"uncertainty\"") && lines[0].contains("\"profile\""))
        if geocoder != nil { #expect(lines[0].contains("\"placemark\"")) }
    }
}
