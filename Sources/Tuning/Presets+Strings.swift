// The string-instrument catalogue (seed 004, section 3.6 table). MIDI: C4 = 60, A4 = 69,
// E2 = 40. Each line's comment spells the notes so the numbers can be checked by eye;
// Tests/TuningTests verifies the comments against the numbers.

extension TuningPreset {
    static let stringPresets: [TuningPreset] =
        guitar + extendedGuitar + bass + orchestral + mediterranean + ukulele + banjo
        + steel + latin + indian + lute

    static let guitar: [TuningPreset] = [
        .init("guitar-standard", "Standard (E A D G B E)", .guitar, midi: [40, 45, 50, 55, 59, 64]), // E2 A2 D3 G3 B3 E4
        .init("guitar-eb-standard", "Half step down (Eb Ab Db Gb Bb Eb)", .guitar, midi: [39, 44, 49, 54, 58, 63]), // D#2 G#2 C#3 F#3 A#3 D#4
        .init("guitar-d-standard", "Full step down (D G C F A D)", .guitar, midi: [38, 43, 48, 53, 57, 62]), // D2 G2 C3 F3 A3 D4
        .init("guitar-drop-d", "Drop D (D A D G B E)", .guitar, midi: [38, 45, 50, 55, 59, 64]), // D2 A2 D3 G3 B3 E4
        .init("guitar-double-drop-d", "Double drop D (D A D G B D)", .guitar, midi: [38, 45, 50, 55, 59, 62]), // D2 A2 D3 G3 B3 D4
        .init("guitar-drop-c-sharp", "Drop C# (C# G# C# F# A# D#)", .guitar, midi: [37, 44, 49, 54, 58, 63]), // C#2 G#2 C#3 F#3 A#3 D#4
        .init("guitar-drop-c", "Drop C (C G C F A D)", .guitar, midi: [36, 43, 48, 53, 57, 62]), // C2 G2 C3 F3 A3 D4
        .init("guitar-dadgad", "DADGAD", .guitar, midi: [38, 45, 50, 55, 57, 62]), // D2 A2 D3 G3 A3 D4
        .init("guitar-open-g", "Open G (D G D G B D)", .guitar, midi: [38, 43, 50, 55, 59, 62]), // D2 G2 D3 G3 B3 D4
        .init("guitar-open-d", "Open D (D A D F# A D)", .guitar, midi: [38, 45, 50, 54, 57, 62]), // D2 A2 D3 F#3 A3 D4
        .init("guitar-open-e", "Open E (E B E G# B E)", .guitar, midi: [40, 47, 52, 56, 59, 64]), // E2 B2 E3 G#3 B3 E4
        .init("guitar-open-a", "Open A (E A E A C# E)", .guitar, midi: [40, 45, 52, 57, 61, 64]), // E2 A2 E3 A3 C#4 E4
        .init("guitar-open-c", "Open C (C G C G C E)", .guitar, midi: [36, 43, 48, 55, 60, 64]), // C2 G2 C3 G3 C4 E4
        .init("guitar-open-d-minor", "Open D minor (D A D F A D)", .guitar, midi: [38, 45, 50, 53, 57, 62]), // D2 A2 D3 F3 A3 D4
        .init("guitar-nashville", "Nashville high-strung (E A D G B E)", .guitar, midi: [52, 57, 62, 67, 59, 64]), // E3 A3 D4 G4 B3 E4
        .init("guitar-facgce", "Math rock FACGCE", .guitar, midi: [41, 45, 48, 55, 60, 64]), // F2 A2 C3 G3 C4 E4
        .init("guitar-all-fourths", "All fourths (E A D G C F)", .guitar, midi: [40, 45, 50, 55, 60, 65]), // E2 A2 D3 G3 C4 F4
    ]

    static let extendedGuitar: [TuningPreset] = [
        .init("baritone-b", "Baritone B standard (B E A D F# B)", .extendedGuitar, midi: [35, 40, 45, 50, 54, 59]), // B1 E2 A2 D3 F#3 B3
        .init("baritone-a", "Baritone A standard (A D G C E A)", .extendedGuitar, midi: [33, 38, 43, 48, 52, 57]), // A1 D2 G2 C3 E3 A3
        .init("baritone-drop-a", "Baritone drop A (A E A D F# B)", .extendedGuitar, midi: [33, 40, 45, 50, 54, 59]), // A1 E2 A2 D3 F#3 B3
        .init("seven-string-standard", "7-string standard (B E A D G B E)", .extendedGuitar, midi: [35, 40, 45, 50, 55, 59, 64]), // B1 E2 A2 D3 G3 B3 E4
        .init("seven-string-drop-a", "7-string drop A (A E A D G B E)", .extendedGuitar, midi: [33, 40, 45, 50, 55, 59, 64]), // A1 E2 A2 D3 G3 B3 E4
        // F#1 B1 E2 A2 D3 G3 B3 E4
        .init("eight-string-standard", "8-string standard (F# B E A D G B E)", .extendedGuitar, midi: [30, 35, 40, 45, 50, 55, 59, 64]),
        .init("eight-string-drop-e", "8-string drop E (E B E A D G B E)", .extendedGuitar, midi: [28, 35, 40, 45, 50, 55, 59, 64]), // E1 B1 E2 A2 D3 G3 B3 E4
        // E2 E3 A2 A3 D3 D4 G3 G4 B3 E4
        .init("twelve-string-standard", "12-string standard (octave courses)", .extendedGuitar, midi: [40, 52, 45, 57, 50, 62, 55, 67, 59, 64]),
        .init("tenor-guitar", "Tenor guitar (C G D A)", .extendedGuitar, midi: [48, 55, 62, 69]), // C3 G3 D4 A4
    ]

    static let bass: [TuningPreset] = [
        .init("bass-standard", "4-string standard (E A D G)", .bass, midi: [28, 33, 38, 43]), // E1 A1 D2 G2
        .init("bass-5-string", "5-string standard (B E A D G)", .bass, midi: [23, 28, 33, 38, 43]), // B0 E1 A1 D2 G2
        .init("bass-6-string", "6-string standard (B E A D G C)", .bass, midi: [23, 28, 33, 38, 43, 48]), // B0 E1 A1 D2 G2 C3
        .init("bass-5-string-tenor", "5-string high C (E A D G C)", .bass, midi: [28, 33, 38, 43, 48]), // E1 A1 D2 G2 C3
        .init("bass-eb-standard", "Eb standard (Eb Ab Db Gb)", .bass, midi: [27, 32, 37, 42]), // D#1 G#1 C#2 F#2
        .init("bass-d-standard", "D standard (D G C F)", .bass, midi: [26, 31, 36, 41]), // D1 G1 C2 F2
        .init("bass-drop-d", "Drop D (D A D G)", .bass, midi: [26, 33, 38, 43]), // D1 A1 D2 G2
        .init("bass-drop-c", "Drop C (C G C F)", .bass, midi: [24, 31, 36, 41]), // C1 G1 C2 F2
        .init("bass-bead", "BEAD (B E A D)", .bass, midi: [23, 28, 33, 38]), // B0 E1 A1 D2
        .init("bass-piccolo", "Piccolo bass (E A D G, octave up)", .bass, midi: [40, 45, 50, 55]), // E2 A2 D3 G3
    ]

    static let orchestral: [TuningPreset] = [
        .init("violin", "Violin (G D A E)", .orchestralStrings, midi: [55, 62, 69, 76]), // G3 D4 A4 E5
        .init("violin-5-string", "5-string violin (C G D A E)", .orchestralStrings, midi: [48, 55, 62, 69, 76]), // C3 G3 D4 A4 E5
        .init("fiddle-cross-a", "Fiddle cross A (A E A E)", .orchestralStrings, midi: [57, 64, 69, 76]), // A3 E4 A4 E5
        .init("viola", "Viola (C G D A)", .orchestralStrings, midi: [48, 55, 62, 69]), // C3 G3 D4 A4
        .init("cello", "Cello (C G D A)", .orchestralStrings, midi: [36, 43, 50, 57]), // C2 G2 D3 A3
        .init("double-bass", "Double bass orchestral (E A D G)", .orchestralStrings, midi: [28, 33, 38, 43]), // E1 A1 D2 G2
        .init("double-bass-solo", "Double bass solo (F# B E A)", .orchestralStrings, midi: [30, 35, 40, 45]), // F#1 B1 E2 A2
        .init("double-bass-5-string", "Double bass 5-string (C E A D G)", .orchestralStrings, midi: [24, 28, 33, 38, 43]), // C1 E1 A1 D2 G2
        .init("double-bass-fifths", "Double bass in fifths (C G D A)", .orchestralStrings, midi: [24, 31, 38, 45]), // C1 G1 D2 A2
    ]

    static let mediterranean: [TuningPreset] = [
        .init("mandolin", "Mandolin (G D A E)", .mediterraneanFolk, midi: [55, 62, 69, 76]), // G3 D4 A4 E5
        .init("mandola", "Mandola (C G D A)", .mediterraneanFolk, midi: [48, 55, 62, 69]), // C3 G3 D4 A4
        .init("octave-mandolin", "Octave mandolin (G D A E)", .mediterraneanFolk, midi: [43, 50, 57, 64]), // G2 D3 A3 E4
        .init("mandocello", "Mandocello (C G D A)", .mediterraneanFolk, midi: [36, 43, 50, 57]), // C2 G2 D3 A3
        .init("irish-bouzouki-gdad", "Irish bouzouki GDAD", .mediterraneanFolk, midi: [43, 50, 57, 62]), // G2 D3 A3 D4
        .init("irish-bouzouki-gdae", "Irish bouzouki GDAE", .mediterraneanFolk, midi: [43, 50, 57, 64]), // G2 D3 A3 E4
        .init("irish-bouzouki-adad", "Irish bouzouki ADAD", .mediterraneanFolk, midi: [45, 50, 57, 62]), // A2 D3 A3 D4
        .init("greek-bouzouki-tetrachordo", "Greek bouzouki tetrachordo (C F A D)", .mediterraneanFolk, midi: [48, 53, 57, 62]), // C3 F3 A3 D4
        .init("greek-bouzouki-trichordo", "Greek bouzouki trichordo (D A D)", .mediterraneanFolk, midi: [50, 57, 62]), // D3 A3 D4
        .init("bandurria", "Bandurria (G# C# F# B E A)", .mediterraneanFolk, midi: [56, 61, 66, 71, 76, 81]), // G#3 C#4 F#4 B4 E5 A5
        .init("laouto", "Laouto (C G D A)", .mediterraneanFolk, midi: [48, 55, 62, 69]), // C3 G3 D4 A4
    ]

    static let ukulele: [TuningPreset] = [
        .init("ukulele-standard", "Soprano/concert/tenor (g C E A)", .ukulele, midi: [67, 60, 64, 69]), // G4 C4 E4 A4
        .init("ukulele-low-g", "Low G (G C E A)", .ukulele, midi: [55, 60, 64, 69]), // G3 C4 E4 A4
        .init("ukulele-d", "D tuning (a D F# B)", .ukulele, midi: [69, 62, 66, 71]), // A4 D4 F#4 B4
        .init("ukulele-baritone", "Baritone (D G B E)", .ukulele, midi: [50, 55, 59, 64]), // D3 G3 B3 E4
        .init("ukulele-u-bass", "U-Bass (E A D G)", .ukulele, midi: [28, 33, 38, 43]), // E1 A1 D2 G2
    ]

    static let banjo: [TuningPreset] = [
        .init("banjo-open-g", "5-string open G (g D G B D)", .banjo, midi: [67, 50, 55, 59, 62]), // G4 D3 G3 B3 D4
        .init("banjo-sawmill", "Sawmill / G modal (g D G C D)", .banjo, midi: [67, 50, 55, 60, 62]), // G4 D3 G3 C4 D4
        .init("banjo-c", "C tuning (g C G B D)", .banjo, midi: [67, 48, 55, 59, 62]), // G4 C3 G3 B3 D4
        .init("banjo-double-c", "Double C (g C G C D)", .banjo, midi: [67, 48, 55, 60, 62]), // G4 C3 G3 C4 D4
        .init("banjo-double-d", "Double D (a D A D E)", .banjo, midi: [69, 50, 57, 62, 64]), // A4 D3 A3 D4 E4
        .init("banjo-open-d", "Open D (f# D F# A D)", .banjo, midi: [66, 50, 54, 57, 62]), // F#4 D3 F#3 A3 D4
        .init("banjo-a", "Open A (a E A C# E)", .banjo, midi: [69, 52, 57, 61, 64]), // A4 E3 A3 C#4 E4
        .init("banjo-plectrum", "Plectrum (C G B D)", .banjo, midi: [48, 55, 59, 62]), // C3 G3 B3 D4
        .init("banjo-tenor", "Tenor (C G D A)", .banjo, midi: [48, 55, 62, 69]), // C3 G3 D4 A4
        .init("banjo-tenor-irish", "Irish tenor (G D A E)", .banjo, midi: [43, 50, 57, 64]), // G2 D3 A3 E4
        .init("banjo-6-string", "6-string banjo (E A D G B E)", .banjo, midi: [40, 45, 50, 55, 59, 64]), // E2 A2 D3 G3 B3 E4
    ]
}
