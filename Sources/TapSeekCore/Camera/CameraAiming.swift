import Foundation

extension CameraOrientation {
    /// The orientation that makes pixel (x, y) of `camera`'s image look along `target`, for a
    /// given roll: "turn the phone so that this pixel covers that point".
    ///
    /// Closed form. After roll the pixel's ray is c = (cx, cy, cz); pitch p must lift it to the
    /// target's elevation e: cy·cos p + cz·sin p = sin e, i.e. ρ·sin(φ + p) = sin e with
    /// ρ = √(cy² + cz²), φ = atan2(cy, cz). Of the two solutions the one within −90…90° is
    /// taken (the smaller |p| if both are). The heading then turns the ray's horizontal part
    /// onto the target's azimuth. Exact to rounding: the returned orientation maps the pixel onto
    /// `target` to ≈ 1e−12 rad.
    ///
    /// - Parameters:
    ///   - target: ENU direction, any nonzero length.
    ///   - roll: degrees, kept as given.
    /// - Returns: nil when no pitch within −90…90° reaches the target's elevation from that pixel
    ///   (a pixel far off the vertical image axis cannot be swung to the zenith, for instance).
    ///   For a target straight up or down the heading is not determined; any valid one is
    ///   returned.
    public static func aiming(pixelX x: Double, y: Double, of camera: PinholeCamera, roll: Double,
                              at target: Vector3) -> CameraOrientation? {
        let t = target.normalized
        guard t.x.isFinite, t.y.isFinite, t.z.isFinite else { return nil }
        let d = camera.ray(throughPixelX: x, y: y)
        let r = radians(roll)
        let cx = d.x * cos(r) + d.y * sin(r)
        let cy = -d.x * sin(r) + d.y * cos(r)
        let cz = d.z
        let rho = (cy * cy + cz * cz).squareRoot()
        let phi = atan2(cy, cz)
        guard rho > 0, abs(t.z) <= rho * (1 + 1e-12) else { return nil }
        let alpha = asin(max(-1, min(1, t.z / rho)))
        let halfPi = Double.pi / 2
        let candidates = [alpha - phi, Double.pi - alpha - phi]
            .map { remainder($0, 2 * Double.pi) }           // into [−π, π]
            .filter { abs($0) <= halfPi * (1 + 1e-12) }
            .sorted { abs($0) < abs($1) }
        guard let p = candidates.first.map({ max(-halfPi, min(halfPi, $0)) }) else { return nil }

        // The pixel's ray in the level frame has horizontal components (cx, zLevel): azimuth
        // atan2(cx, zLevel) at heading 0, and the heading adds to every azimuth.
        let zLevel = -cy * sin(p) + cz * cos(p)
        let targetAzimuth = atan2(t.x, t.y)
        let heading = targetAzimuth - atan2(cx, zLevel)
        return CameraOrientation(heading: normalizedAzimuth(degrees(heading)), pitch: degrees(p), roll: roll)
    }
}
