/// The names of Copernicus DEM tiles (GLO-30 and GLO-90), as the public bucket and ESA's
/// distribution give them: `Copernicus_DSM_COG_10_N46_00_E008_00_DEM` is the 1″ (GLO-30) tile
/// of 46…47° N, 8…9° E, `…_COG_30_…` the 3″ (GLO-90) one. The file is a COG GeoTIFF of heights
/// above EGM2008 (Copernicus DEM Product Handbook, AIRBUS, 2022).
public enum CopernicusTileName {
    /// The base name of the GLO-30 tile whose south-west corner is at these whole degrees.
    public static func glo30(latitude: Int, longitude: Int) -> String {
        "Copernicus_DSM_COG_10_\(label(latitude, "N", "S", width: 2))_00_\(label(longitude, "E", "W", width: 3))_00_DEM"
    }

    /// The south-west corner a Copernicus tile's name (with or without `.tif`, any directory)
    /// gives, and its spacing in arc seconds (1 or 3); nil for any other name.
    public static func parse(_ fileName: String) -> (latitude: Int, longitude: Int, arcSeconds: Int)? {
        var name = Substring(fileName.split(separator: "/").last ?? "")
        if name.lowercased().hasSuffix(".tif") { name = name.dropLast(4) }
        let parts = name.split(separator: "_", omittingEmptySubsequences: false)
        // Copernicus DSM COG 10 N46 00 E008 00 DEM
        guard parts.count == 9, parts[0] == "Copernicus", parts[1] == "DSM", parts[2] == "COG",
              parts[5] == "00", parts[7] == "00", parts[8] == "DEM",
              let resolution = Int(parts[3]), resolution == 10 || resolution == 30,
              let latitude = degrees(parts[4], "N", "S", width: 2), (-90...89).contains(latitude),
              let longitude = degrees(parts[6], "E", "W", width: 3), (-180...179).contains(longitude) else { return nil }
        return (latitude, longitude, resolution / 10)
    }

    private static func label(_ value: Int, _ positive: String, _ negative: String, width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? negative : positive) + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    private static func degrees(_ text: Substring, _ positive: Character, _ negative: Character, width: Int) -> Int? {
        guard text.count == width + 1, let sign = text.first, sign == positive || sign == negative,
              text.dropFirst().allSatisfy({ $0 >= "0" && $0 <= "9" }), let value = Int(text.dropFirst()) else { return nil }
        return sign == negative ? -value : value
    }
}
