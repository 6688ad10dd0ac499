/// The surface a DEM's heights are measured from. TapSeek's heights are above EGM96 (the
/// conventions' "mean sea level"); a tile measured against another geoid is converted on load
/// when that geoid's grid is at hand (``EGM2008Conversion``), else read as it is, with a warning.
public enum VerticalDatum: String, Sendable, Hashable, CaseIterable {
    /// The EGM96 geoid: SRTM, DTED and most national DEMs of the SRTM era.
    case egm96 = "EGM96"
    /// The EGM2008 geoid: Copernicus GLO-30 and GLO-90 (Copernicus DEM Product Handbook, 2022).
    case egm2008 = "EGM2008"
}
