import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

/// Zip archives written by Python's `zipfile` (an independent writer) at test time.
@Suite struct ZipMembersTests {
    /// Zips `files` (archive name → source path) into `zip` with Python's zipfile.
    static func makeZip(_ zip: URL, _ files: [(String, URL)], compression: String = "ZIP_DEFLATED", zip64: Bool = false) throws {
        let list = files.map { "(\"\($0.0)\", \"\($0.1.path)\")" }.joined(separator: ",")
        let script = """
        import zipfile
        with zipfile.ZipFile("\(zip.path)", "w", zipfile.\(compression)) as z:
            for name, path in [\(list)]:
                with open(path, "rb") as f, z.open(name, "w", force_zip64=\(zip64 ? "True" : "False")) as out:
                    out.write(f.read())
        """
        try SharedData.run("python3", ["-c", script])
    }

    static func allLines(_ reader: LineReader) throws -> [Line] {
        var reader = reader
        var out: [Line] = []
        while let l = try reader.next() { out.append(l) }
        return out
    }

    static let android = SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024")

    /// The zipped Sensor Logger export (files inside a top folder, as some zip tools do) imports
    /// exactly like the folder.
    @Test(.enabled(if: SharedData.available(android))) func zippedSensorLoggerExportMatchesTheFolder() throws {
        let directory = try SharedData.temporaryDirectory("zip")
        defer { try? FileManager.default.removeItem(at: directory) }
        let zip = directory.appendingPathComponent("export.zip")
        try Self.makeZip(zip, ["Location.csv", "Orientation.csv", "Metadata.csv"].map { ("rec/\($0)", Self.android.appendingPathComponent($0)) })
        #expect(ZipMembers.isZip(path: zip.path))
        #expect(try LogFormat.detect(path: zip.path) == .sensorlogger)
        var fromZip = try LogImport.open(path: zip.path, format: .sensorlogger)
        var fromFolder = try LogImport.open(path: Self.android.path, format: .sensorlogger)
        var count = 0
        while let a = try fromFolder.next() {
            #expect(try fromZip.next() == a)
            count += 1
        }
        #expect(try fromZip.next() == nil)
        #expect(count == 7)
    }

    /// 2 MB of varied rows, deflated (many blocks, window trimming, batch boundaries), stored,
    /// and forced ZIP64, all read back line for line.
    @Test func largeMembersRoundTripInEveryLayout() throws {
        let directory = try SharedData.temporaryDirectory("zip-large")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("Location.csv")
        var text = "time,latitude,longitude\n"
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for i in 0..<40_000 {
            x = x &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            text += "\(1_700_000_000_000_000_000 + i * 1_000_000_000),\(46 + Double(x >> 40) / 1e9),\(8 + Double(x & 0xFFFF) / 1e6)\n"
        }
        try Data(text.utf8).write(to: plain)
        let expected = try Self.allLines(LineReader(path: plain.path))
        for (compression, zip64) in [("ZIP_DEFLATED", false), ("ZIP_STORED", false), ("ZIP_DEFLATED", true)] {
            let zip = directory.appendingPathComponent("\(compression)\(zip64).zip")
            try Self.makeZip(zip, [("Location.csv", plain)], compression: compression, zip64: zip64)
            let members = try ZipMembers(path: zip.path)
            #expect(members.memberNames == ["Location.csv"])
            #expect(try Self.allLines(members.lines(of: "Location.csv")) == expected, "\(compression) zip64 \(zip64)")
        }
    }

    /// A flipped byte inside the compressed data is caught (bad code, or the CRC at the end).
    @Test func damagedMemberIsReportedNotReadShort() throws {
        let directory = try SharedData.temporaryDirectory("zip-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("Location.csv")
        try Data(String(repeating: "1700000000000000000,46.5,8.25\n", count: 2000).utf8).write(to: plain)
        let zip = directory.appendingPathComponent("d.zip")
        try Self.makeZip(zip, [("Location.csv", plain)])
        var bytes = try Data(contentsOf: zip)
        // Local header 30 bytes + name 12 bytes; damage the middle of the compressed data.
        let dataStart = 30 + "Location.csv".utf8.count
        bytes[dataStart + 20] ^= 0x55
        try bytes.write(to: zip)
        #expect(throws: StreamReadError.self) {
            _ = try Self.allLines(ZipMembers(path: zip.path).lines(of: "Location.csv"))
        }
    }

    @Test func notAZipIsRejected() throws {
        let directory = try SharedData.temporaryDirectory("zip-none")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("x.zip")
        try Data("PK\u{3}\u{4}garbage".utf8).write(to: file)
        #expect(throws: ImportError.self) { try ZipMembers(path: file.path) }
    }
}
