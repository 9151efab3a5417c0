import Foundation

/// Draws the parameters of sample `index` of a dataset seeded with `seed` from
/// `SynthRandom(seed: seed, stream: index)`. The ranges below are the generator's
/// design ranges; `SynthParameters` documents each field.
enum ParameterSampler {
    static func sample(
        index: Int, seed: UInt64, synthClass: SynthClass, width: Int, height: Int,
        contentTextures: [Int]
    ) -> SynthParameters {
        var rng = SynthRandom(seed: seed, stream: UInt64(bitPattern: Int64(index)))
        func logUniform(_ r: ClosedRange<Float>) -> Float {
            exp(rng.uniform(log(r.lowerBound)...log(r.upperBound)))
        }
        func chance(_ p: Float) -> Bool { rng.unit() < p }

        let fov = rng.uniform(65...70)
        var p = SynthParameters(
            synthClass: synthClass, subjectKind: .room, seed: seed, index: index,
            width: width, height: height, horizontalFovDeg: fov,
            baselineMm: rng.uniform(10...20), sceneSeed: rng.next(), noiseSeed: rng.next())
        p.sensor = SensorParameters(
            lensBlurSigmaPx: rng.uniform(0.3...0.7), fullWellE: logUniform(1500...10000),
            readNoiseE: rng.uniform(1.5...5), exposureTarget: rng.uniform(0.14...0.24),
            vignetting: rng.uniform(0...0.25), whiteBalanceStrength: rng.uniform(0.6...1),
            sharpenAmount: rng.uniform(0...0.6), adcBits: chance(0.3) ? 10 : 12,
            demosaic: chance(0.8) ? .malvarHeCutler : .bilinear)
        p.depthSensor = DepthSensorParameters(
            noiseAMm: rng.uniform(0.3...1.0), noiseBMmPerM2: rng.uniform(0.4...1.2),
            coarseFraction: rng.uniform(0.6...0.8), fineCorrelationPx: rng.uniform(0.8...1.5),
            coarseCorrelationPx: rng.uniform(8...12), smoothingPx: rng.uniform(0.6...1.4),
            edgeHoleProbability: rng.uniform(0.05...0.3), dropoutRate: rng.uniform(0...0.003),
            maxRangeM: rng.uniform(4.5...6), quantisationMm: 1)
        p.lighting = LightingParameters(
            colorTemperatureK: rng.uniform(2700...6500), ambient: rng.uniform(0.15...0.6),
            elevationDeg: rng.uniform(20...80), azimuthDeg: rng.uniform(-120...120), distanceM: rng.uniform(1...3),
            lightSizeM: [rng.uniform(0.15...1.2), rng.uniform(0.15...1.0)], shadowSamples: 3,
            aoRadiusM: rng.uniform(0.25...0.6), aoSamples: 12, bounce: rng.uniform(0.2...0.6), lightingCellPx: 8)
        p.jpegQuality = 80 + Int(rng.next() % 16)
        var tags = ["synthetic"]

        let tanHalf = tan(fov * .pi / 360)
        let aspect = Float(height) / Float(max(width, 1))
        func pose(distance: ClosedRange<Float>) {
            p.subject.distanceM = logUniform(distance)
            p.subject.tiltDeg = rng.uniform(0...40)
            p.subject.fillFraction = rng.uniform(0.4...1.0)
            p.subject.offsetX = rng.uniform(-0.08...0.08)
            p.subject.offsetY = rng.uniform(-0.08...0.08)
        }
        /// How a person holds the phone and how the subject rests: camera roll mostly
        /// within +-6 degrees (10 %: +-15); a subject lying flat is seen from its near
        /// side (tilt axis opposite the image x axis, turned with the roll), an upright
        /// one from any direction; `rotation` is the subject's in-plane turn.
        func orient(lean: Float, rotation: Float) {
            let roll = chance(0.9) ? rng.uniform(-6...6) : rng.uniform(-15...15)
            p.subject.cameraRollDeg = roll
            p.subject.leanDeg = lean
            p.subject.tiltAxisDeg = lean > 60 ? 180 + roll + rng.uniform(-15...15) : rng.uniform(0...360)
            p.subject.rotationDeg = rotation
        }
        /// In-plane turn: `small` degrees either way, 20 % of the time up to `large`.
        func turn(_ small: Float, _ large: Float) -> Float {
            chance(0.8) ? rng.uniform(-small...small) : rng.uniform(-large...large)
        }
        func content(allowFlat: Bool, text: Bool, allowText: Bool = true) -> ContentParameters {
            let seed = rng.next()
            if text { return ContentParameters(kind: .text, seed: seed) }
            let u = rng.unit()
            if allowFlat && u < 0.07 {
                let g = rng.uniform(0.3...0.9)
                let colour: [Float] = chance(0.7) ? [g, g, g] : [rng.unit(), rng.unit(), rng.unit()]
                return ContentParameters(kind: .flat, seed: seed, color: colour)
            }
            if u < 0.47 && !contentTextures.isEmpty {
                let pick = Int(rng.next() % UInt64(contentTextures.count))
                return ContentParameters(kind: .photo, textureIndex: contentTextures[pick], seed: seed)
            }
            if u < 0.8 || !allowText { return ContentParameters(kind: .scene, seed: seed) }
            return ContentParameters(kind: .text, seed: seed)
        }

        switch synthClass {
        case .realScene:
            let u = rng.unit()
            if u < 0.35 {
                p.subjectKind = .room
                p.subject = SubjectPlacement(distanceM: 0, fillFraction: 0)
            } else if u < 0.7 {
                p.subjectKind = .tabletop
                p.subject = SubjectPlacement(distanceM: 0, fillFraction: 0)
            } else if u < 0.85 {
                p.subjectKind = .wall
                pose(distance: 0.4...3)
                p.subject.fillFraction = 1
                p.subject.offsetX = 0
                p.subject.offsetY = 0
                p.subject.placement = .wall
                orient(lean: 0, rotation: 0)
                tags.append("flat_subject")
            } else {
                p.subjectKind = .document
                pose(distance: 0.25...0.6)
                p.subject.placement = .desk
                orient(lean: 90, rotation: turn(10, 40))
                p.subject.curvaturePerM = chance(0.4) ? rng.uniform(0...1.5) : 0
                let portrait = chance(0.6)
                let a4: [Float] = portrait ? [0.21, 0.297] : [0.297, 0.21]
                p.subject.fillFraction = a4[0] / (2 * p.subject.distanceM * tanHalf)
                p.content = ContentParameters(kind: .text, seed: (rng.next() & ~1) | (chance(0.3) ? 1 : 0))
                p.print = PrintParameters(
                    process: .solidToner, lpi: 0, periodPx: 0,
                    dotGain: 0, paperWhite: rng.uniform(0.85...0.9),
                    inkBlack: rng.uniform(0.03...0.06), paperTexture: rng.uniform(0.01...0.05),
                    sheetSizeM: a4)
                tags.append("flat_subject")
            }
        case .lcdScreen, .oledScreen:
            pose(distance: 0.25...1.5)
            let d = p.subject.distanceM
            let frameWidth = 2 * d * tanHalf
            var panelW = p.subject.fillFraction * frameWidth
            let kind: SubjectKind =
                panelW < 0.17 ? .phone : (panelW < 0.32 ? .tablet : (panelW < 0.8 ? .monitor : .television))
            p.subjectKind = kind
            var panelH: Float
            switch kind {
            case .phone:
                if chance(0.3) { // portrait: fill refers to the frame height
                    panelH = p.subject.fillFraction * frameWidth * aspect
                    panelW = panelH / 2.17
                } else {
                    panelH = panelW / 2.17
                }
            case .tablet: panelH = panelW * 0.75
            case .monitor: panelH = panelW / (chance(0.7) ? 16.0 / 9 : 1.6)
            default: panelH = panelW * 9 / 16
            }
            let pitchPx = logUniform(1.2...6)
            let pitchM = pitchPx * d / p.focalPx
            let oled = synthClass == .oledScreen
            var dp = DisplayParameters(
                panelLayout: oled ? .diamondPentile : .rgbStripe, pixelPitchPx: pitchPx, pixelPitchMm: pitchM * 1000,
                resolution: [max(1, Int((panelW / pitchM).rounded())), max(1, Int((panelH / pitchM).rounded()))],
                fillFactor: oled ? rng.uniform(0.45...0.7) : rng.uniform(0.55...0.9),
                verticalFill: oled ? 1 : rng.uniform(0.7...0.95), brightness: rng.uniform(0.8...4),
                gamma: rng.uniform(2.0...2.5), blackLevel: oled ? 0 : rng.uniform(0.001...0.004),
                viewFalloffExponent: oled ? rng.uniform(0.2...0.5) : rng.uniform(0.5...1.5),
                bezelMm: kind == .phone
                    ? rng.uniform(1.5...4) : (kind == .tablet ? rng.uniform(5...12) : rng.uniform(4...20)),
                panelSizeM: [panelW, panelH])
            if chance(oled ? 0.6 : 0.35) {
                dp.flicker = FlickerParameters(
                    hz: oled ? rng.uniform(240...500) : logUniform(90...1200), dutyCycle: rng.uniform(0.2...0.9),
                    modulationDepth: oled ? rng.uniform(0.6...1) : rng.uniform(0.3...1),
                    rowTimeUs: rng.uniform(8...30), exposureMs: logUniform(2...33), phase: rng.unit())
                tags.append("pwm_flicker")
            }
            p.display = dp
            p.subject.placement =
                (kind == .monitor || kind == .television)
                ? (chance(0.6) ? .desk : .wall) : (chance(0.6) ? .handheld : .desk)
            switch (kind, p.subject.placement) {
            case (.monitor, .desk), (.television, .desk):
                orient(lean: rng.uniform(0...8), rotation: rng.uniform(-0.5...0.5))
            case (.monitor, _), (.television, _): orient(lean: 0, rotation: rng.uniform(-0.5...0.5))
            case (_, .desk):
                // A phone or tablet lies on the desk or leans against something on it.
                if chance(0.5) {
                    orient(lean: 90, rotation: turn(10, 45))
                } else {
                    orient(lean: rng.uniform(12...30), rotation: rng.uniform(-2...2))
                }
            default: orient(lean: rng.uniform(0...20), rotation: turn(8, 40))
            }
            if chance(0.4) {
                let glossy = chance(0.6)
                p.glare = GlareParameters(
                    radiance: rng.uniform(3...30),
                    fresnelF0: glossy ? rng.uniform(0.03...0.05) : rng.uniform(0.01...0.03),
                    roughnessRad: glossy ? logUniform(0.002...0.01) : logUniform(0.01...0.06),
                    lightSizeM: [rng.uniform(0.3...1.5), rng.uniform(0.3...1.2)], lightDistanceM: rng.uniform(1.5...4),
                    spot: [rng.uniform(0.1...0.9), rng.uniform(0.1...0.9)])
                tags.append("glare")
            }
            p.content = content(allowFlat: true, text: false)
        case .printedPaper:
            pose(distance: 0.25...1.5)
            let d = p.subject.distanceM
            let sheetW = p.subject.fillFraction * 2 * d * tanHalf
            let landscape = chance(0.6)
            let root2 = Float(2).squareRoot()
            let sheet: [Float] = landscape ? [sheetW, sheetW / root2] : [sheetW, sheetW * root2]
            let periodPx = logUniform(2...8)
            let periodMm = periodPx * d / p.focalPx * 1000
            let text = chance(0.35)
            p.subjectKind = text ? .textPrint : .photoPrint
            p.subject.curvaturePerM = chance(0.5) ? rng.uniform(0...2) : 0
            p.print = PrintParameters(
                process: .cmykHalftone, lpi: 25.4 / periodMm, periodPx: periodPx, screenAnglesDeg: [15, 75, 0, 45],
                dotGain: rng.uniform(0.06...0.18), paperWhite: rng.uniform(0.85...0.9),
                inkBlack: rng.uniform(0.03...0.06),
                paperTexture: rng.uniform(0.01...0.05), grayComponentReplacement: rng.uniform(0.5...1),
                sheetSizeM: sheet)
            let u = rng.unit()
            p.subject.placement = u < 0.35 ? .wall : (u < 0.7 ? .desk : .handheld)
            switch p.subject.placement {
            case .wall: orient(lean: 0, rotation: rng.uniform(-3...3))
            case .desk: orient(lean: 90, rotation: turn(10, 40))
            case .handheld: orient(lean: rng.uniform(0...25), rotation: turn(8, 30))
            }
            if !text && chance(0.3) {
                p.glare = GlareParameters(
                    radiance: rng.uniform(2...10), fresnelF0: 0.04, roughnessRad: logUniform(0.02...0.1),
                    lightSizeM: [rng.uniform(0.3...1.5), rng.uniform(0.3...1.2)], lightDistanceM: rng.uniform(1.5...4),
                    spot: [rng.uniform(0.1...0.9), rng.uniform(0.1...0.9)])
                tags.append("glare")
            }
            p.content = content(allowFlat: false, text: text, allowText: false)
        }
        // Phone processing, cover glass and paper tint come from their own stream, so
        // the draws above stay as they were.
        var finish = SynthRandom(seed: p.noiseSeed, stream: 4)
        p.sensor.isp = ImageSignalProcessor.sampleParameters(&finish)
        if p.display != nil {
            let (glass, viewing) = CoverGlass.sampleParameters(oled: synthClass == .oledScreen, rng: &finish)
            p.display?.coverGlass = glass
            p.display?.viewingAngle = viewing
        }
        if p.print != nil { p.print?.paperTint = HalftonePrinter.samplePaperTint(&finish) }
        if p.subject.curvaturePerM > 0 { tags.append("curved") }
        tags.append(p.subjectKind.rawValue)
        p.tags = tags
        return p
    }
}
