#if canImport(Glibc)
import Glibc
#endif

/// The two band-level measures and the auto tilt (see `SpectrumAnalyzer`).
extension SpectrumAnalyzer {
    /// The level window a hop is shown on: `range` when given, the configured dB range, or
    /// the auto-level moved by this hop's loudest level.
    private func levelWindow(loudest: Float, range: (top: Float, bottom: Float)?) -> (top: Float, bottom: Float) {
        if let range { return range }
        if let fixed = config.dbRange { return (fixed.upperBound, fixed.lowerBound) }
        autoLevel.update(loudest: loudest, seconds: Float(hopSize) / Float(sampleRate))
        return (autoLevel.top, autoLevel.bottom)
    }

    /// The seed's measure: mean dB of the bins, seed tilt, auto-level on the loudest bin
    /// (or shown on `range`, the auto-level left alone).
    func seedBands(into frame: inout SpectrumFrame, range: (top: Float, bottom: Float)? = nil) {
        let half = n / 2
        var peak: Float = -200
        bin.withUnsafeMutableBufferPointer { db in
            for k in 0...half {
                let d = 10 * log10f(max(db[k], 1e-20))
                db[k] = d
                if d > peak { peak = d }
            }
        }
        let (top, bottom) = levelWindow(loudest: peak, range: range)
        frame.dbTop = top
        frame.dbBottom = bottom
        let music = musicMode
        let gain = gainDB
        let weighted = config.weighting != .none
        bin.withUnsafeBufferPointer { db in
            tilt.withUnsafeBufferPointer { tl in
                frame.bandDB.withUnsafeMutableBufferPointer { out in
                    frame.bands.withUnsafeMutableBufferPointer { disp in
                        for i in 0..<layout.count {
                            let c = count[i]
                            var value: Float
                            if layout.lower[i] >= Double(sampleRate) / 2 {
                                value = -200
                            } else {
                                let f = first[i]
                                var acc: Float = 0
                                for k in f..<(f + c) { acc += db[k] }
                                value = acc / Float(c) + gain
                                if music { value += tl[i] }
                                if weighted { value += bandWeightDB[i] }
                            }
                            out[i] = value
                            disp[i] = min(max((value - bottom) / (top - bottom), 0), 1)
                        }
                    }
                }
            }
        }
    }

    /// Band power in dBFS with interpolation for narrow bands, weighting, tilt, gain (or,
    /// given a `range`, shown on it with the bass levels, tilt and auto-level left alone).
    func powerBands(into frame: inout SpectrumFrame, range: (top: Float, bottom: Float)? = nil) {
        if range == nil { refreshBass() }
        bandPowers(into: &frame)
        let gain = gainDB
        var loudest: Float = -200
        if config.tilt == .auto && range == nil { updateAutoTilt(frame.bandDB) }
        frame.bandDB.withUnsafeMutableBufferPointer { out in
            tilt.withUnsafeBufferPointer { tl in
                for i in 0..<layout.count where out[i] > -200 {
                    out[i] += tl[i] + gain
                    if out[i] > loudest { loudest = out[i] }
                }
            }
        }
        let (top, bottom) = levelWindow(loudest: loudest, range: range)
        frame.dbTop = top
        frame.dbBottom = bottom
        frame.bandDB.withUnsafeBufferPointer { out in
            frame.bands.withUnsafeMutableBufferPointer { disp in
                for i in 0..<layout.count { disp[i] = min(max((out[i] - bottom) / (top - bottom), 0), 1) }
            }
        }
    }

    /// The bass path's levels: a new decimated spectrum every 4096 input samples.
    func refreshBass() {
        if let bass {
            // The bass window is 8192 samples: a new spectrum every 4096 input samples
            // (50 % overlap) is all it resolves; in between its bands keep their levels.
            if bassCountdown <= 0 {
                bass.analyse()
                bass.power.withUnsafeBufferPointer { p in
                    bassDB.withUnsafeMutableBufferPointer { d in
                        for k in 0..<d.count { d[k] = fastDecibels(p[k]) }
                    }
                }
                bassBands(bass)
                bassCountdown += 4096
            }
            bassCountdown -= hopSize
        }
    }

    /// Band power (dBFS) of every band, before tilt and gain, into `frame.bandDB`: the
    /// weighted sum of its bins over ENBW, or the interpolated level at the centre of a
    /// narrow band when louder and tonal (`tonalDB`; the dB of the bins it reads in `lowDB`); the bass path's
    /// bands from `bassLevels`.
    func bandPowers(into frame: inout SpectrumFrame) {
        bin.withUnsafeBufferPointer { p in
            lowDB.withUnsafeMutableBufferPointer { d in
                for k in 0..<d.count { d[k] = fastDecibels(p[k]) }
            }
        }
        let inv = 1 / enbw, reach = tonalReach
        let weighted = config.weighting != .none
        bin.withUnsafeBufferPointer { p in
            lowDB.withUnsafeBufferPointer { lowDB in
                binWeight.withUnsafeBufferPointer { bw in
                    plan.withUnsafeBufferPointer { plan in
                        frame.bandDB.withUnsafeMutableBufferPointer { out in
                            for i in 0..<plan.count {
                                let b = plan[i]
                                if b.bass { out[i] = bassLevels[i]; continue }
                                let f = Int(b.first), c = Int(b.count)
                                if c == 0 { out[i] = -200; continue }
                                var acc: Float
                                if c == 1 {
                                    acc = p[f] * b.wFirst * (weighted ? bw[f] : 1)
                                } else if weighted {
                                    acc = p[f] * bw[f] * b.wFirst + p[f + c - 1] * bw[f + c - 1] * b.wLast
                                    if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] * bw[k] } }
                                } else {
                                    acc = p[f] * b.wFirst + p[f + c - 1] * b.wLast
                                    if c > 2 { for k in (f + 1)..<(f + c - 1) { acc += p[k] } }
                                }
                                var value = fastDecibels(acc * inv)
                                let x = b.centreBin
                                if x >= 0 {
                                    // Parabola in dB through the three bins around the centre.
                                    let interp = tonalDB(lowDB, at: x, reach: reach) + b.weightDB
                                    if interp > value { value = interp }
                                }
                                out[i] = value
                            }
                        }
                    }
                }
            }
        }
    }

    /// The bands on the bass path: the same measure on the decimated spectrum, weighted
    /// at the band centre.
    func bassBands(_ bass: BassSpectrum) {
        let inv = 1 / bass.enbw
        bass.power.withUnsafeBufferPointer { p in
            bassDB.withUnsafeBufferPointer { db in
                plan.withUnsafeBufferPointer { plan in
                    bassLevels.withUnsafeMutableBufferPointer { out in
                        for i in 0..<plan.count where plan[i].bass {
                            out[i] = plan[i].level(p, db, inv, reach: BassSpectrum.tonalReach)
                        }
                    }
                }
            }
        }
    }

    /// `--tilt auto`: the long-term average band power (exponential, `autoSeconds`; a plain
    /// mean while fewer updates have been seen; every 8th hop; silent hops, every band below
    /// −90 dB, do not count), its energy per octave below and above 800 Hz (50–800 Hz and
    /// 800 Hz–12.8 kHz, each centred 2 octaves from the pivot: empty bands weigh nothing, so
    /// a track without deep bass or air is not read as tilted), the slope between the two
    /// in dB per octave, and `autoFraction` of it taken away (clamped to −3…+6 dB/octave),
    /// pivoting at 1 kHz, the tilt held constant beyond 125 Hz … 10 kHz. Does not allocate.
    func updateAutoTilt(_ levels: [Float]) {
        let b = layout.count
        autoHop += 1
        guard autoHop % 8 == 1, levels.contains(where: { $0 > -90 }) else { return }
        longTermHops += 1
        let alpha = Float(max(1 / Double(longTermHops), 8 * Double(hopSize) / (SpectrumAnalyzer.autoSeconds * Double(sampleRate))))
        var lowE = 0.0, lowW = 0.0, highE = 0.0, highW = 0.0
        levels.withUnsafeBufferPointer { lv in
            longTerm.withUnsafeMutableBufferPointer { lt in
                for i in 0..<b {
                    lt[i] += (exp2f(max(lv[i], -150) * 0.33219281) - lt[i]) * alpha
                    let w = fitWeight[i]
                    if w == 0 { continue }
                    if octaves[i] < -0.32 { lowE += Double(lt[i]); lowW += w } else { highE += Double(lt[i]); highW += w }
                }
            }
        }
        guard lowW > 0, highW > 0, lowE > 1e-15, highE > 1e-15 else { return }
        // Energy per octave in each region; their centres are 4 octaves apart.
        let slope = (10 * log10(highE / highW) - 10 * log10(lowE / lowW)) / 4
        autoSlope = min(max(-SpectrumAnalyzer.autoFraction * slope, -3), 6)
        for i in 0..<b { tilt[i] = Float(autoSlope * min(max(octaves[i], -3), 3.32)) }
    }
}
