// core-locate DEM_DIR < reading.json
//
// Locates one reading (the interface's reading JSON) on the SRTM tiles (.hgt, .hgt.zip) of
// DEM_DIR and prints the result JSON, as `tapseek locate` does, with TapSeekCore alone.
// The geoid is PROJ's EGM96 grid ($TAPSEEK_GEOID, else /usr/share/proj/egm96_15.gtx); places
// are named when $TAPSEEK_GEOCODER names a geocoder index.
import Foundation
import TapSeekCore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("core-locate: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let directory = arguments.first, !directory.hasPrefix("-") else {
    fail("usage: core-locate DEM_DIR < reading.json")
}
let environment = ProcessInfo.processInfo.environment

let catalog: ElevationCatalog
do {
    catalog = try ElevationCatalog(directory: directory)
} catch {
    fail(error.description)
}
for warning in catalog.warnings { FileHandle.standardError.write(Data("core-locate: warning: \(warning)\n".utf8)) }

let geoid: Geoid
do {
    geoid = try Geoid(gtxContentsOf: environment["TAPSEEK_GEOID"] ?? Geoid.defaultPath)
} catch {
    fail("cannot read the EGM96 geoid: \(error.description)")
}

var placemarks: (@Sendable (Double, Double) -> Placemark?)?
if let path = environment["TAPSEEK_GEOCODER"], !path.isEmpty {
    do {
        let index = try GeocoderIndex(contentsOf: URL(fileURLWithPath: path))
        placemarks = { latitude, longitude in try? index.placemark(latitude: latitude, longitude: longitude) }
    } catch {
        fail("cannot open the geocoder index: \(error.message)")
    }
}

let reading: Reading
do {
    reading = try ReadingDecoder().decode(FileHandle.standardInput.readDataToEndOfFile())
} catch {
    fail("reading: \(error.description)")
}

let locator = Locator(catalog: catalog, geoid: geoid, placemarks: placemarks)
let result = locator.locate(reading)
do {
    var json = try CompactJSONEncoder().encode(result)
    json.append(UInt8(ascii: "\n"))
    FileHandle.standardOutput.write(Data(json))
} catch {
    fail("cannot encode the result: \(error)")
}
exit(result.status == .error ? 1 : 0)
