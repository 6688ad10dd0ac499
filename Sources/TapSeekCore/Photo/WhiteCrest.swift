extension ColourPlanes {
    /// Tallest white crest looked for above a column's boundary, as a share of the height.
    static let snowCrestShare = 0.12
    /// A crest's pixels are at least this many noise units brighter than the sky above it, and
    /// their saturation at most this share of the sky's.
    static let snowBrighter: Float = 3
    static let snowSaturation: Float = 0.6
    /// Highest saturation of snow or cloud ((max − min)/max of the channels): white, or a shade
    /// of blue in the shadow; a sunset's glow is more coloured.
    static let whiteSaturation: Float = 0.15
    /// A crest's top is a step, not a haze: this share of the crest's brightness over the sky
    /// is reached within two rows.
    static let snowStep: Float = 0.6
    /// Most the sky may brighten over the five rows above a crest, as a share of the crest's
    /// brightness over it.
    static let skyPaling: Float = 0.25

    /// For each column whose boundary lies under a white crest, the crest's top row (nil for
    /// the others). A white crest is a band just above the boundary, up to
    /// ``snowCrestShare`` of the height, brighter and whiter than the sky over it and ending
    /// upward in a sharp step from the sky. The boundary there is the lower edge of snow on the
    /// crest (the skyline is the band's top, a uniform fraction of a degree to a few degrees
    /// higher, and a fit would take the whole skyline for a steeper pitch, confidently wrong) or
    /// the foot of a cloud on the ridge (the skyline is hidden behind it). Brighter than the sky,
    /// such a band is no departure from it (``addSkyDeparture(to:boundary:edges:noise:)``), and
    /// its colour alone cannot tell snow from cloud: the DEM must (``Locator/photo``).
    func whiteCrests(boundary: [Int], noise: Float) -> [Int?] {
        var crests = [Int?](repeating: nil, count: width)
        let tallest = max(2, Int(Double(height) * Self.snowCrestShare))
        for x in 0..<width {
            let b = boundary[x]
            // The sky over the tallest crest looked for: three rows above it.
            let reference = b - tallest - 3
            guard b < height, reference >= 0 else { continue }
            let skyMean = mean(column: x, rows: reference..<(reference + 3))
            let sky = SIMD3(skyMean[0], skyMean[1], skyMean[2])
            let skyBrightness = sky.sum() / 3
            let skySaturation = saturation(sky)
            guard skySaturation > 0.04 else { continue }  // a white sky has no snow to tell apart
            func isSnow(_ y: Int) -> Bool {
                let c = colour(x, y)
                return c.sum() / 3 > skyBrightness + Self.snowBrighter * noise
                    && saturation(c) < min(Self.snowSaturation * skySaturation, Self.whiteSaturation)
            }
            // The crest's lowest row: within three rows above the boundary, which may lie on the
            // blend of snow and rock.
            guard let bottom = (max(0, b - 3)..<b).reversed().first(where: isSnow) else { continue }
            var top = bottom
            while top > b - tallest, isSnow(top - 1) { top -= 1 }
            guard bottom - top >= 2, top > b - tallest, top >= 10 else { continue }
            // A crest ends in a step: a row or two into it, it is most of the way from the sky
            // just above it to its own brightness (a haze or a soft cloud pales over many rows).
            func brightness(_ rows: Range<Int>) -> Float {
                let c = mean(column: x, rows: rows)
                return (c[0] + c[1] + c[2]) / 3
            }
            let local = brightness(max(0, top - 4)..<(top - 1))
            let rise = brightness(top..<(bottom + 1)) - local
            let stepped = brightness((top + 1)..<min(top + 3, bottom + 1)) - local
            // ... and the sky above it is level: already paling there, it is a haze.
            let paling = local - brightness(max(0, top - 9)..<max(1, top - 6))
            guard rise > Self.snowBrighter * noise, stepped >= Self.snowStep * rise, paling <= Self.skyPaling * rise else { continue }
            crests[x] = top
        }
        return crests
    }

    /// The colour of pixel (x, y).
    private func colour(_ x: Int, _ y: Int) -> SIMD3<Float> {
        let i = y * width + x
        return SIMD3(planes[0][i], planes[1][i], planes[2][i])
    }

    /// (max − min)/max of a colour's channels: 0 for grey and white, toward 1 for pure colour.
    func saturation(_ c: SIMD3<Float>) -> Float {
        let high = c.max()
        return high > 1 ? (high - c.min()) / high : 0
    }
}
