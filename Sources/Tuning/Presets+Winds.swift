// Woodwind, reed and brass presets (seed 004, section 3.6). Winds have no open strings, so
// each preset spans the instrument's usual SOUNDING range (concert pitch, not the written
// transposed pitch): the target is the nearest semitone the instrument can play, and a note
// outside the range is measured against the range's nearest end.

extension TuningPreset {
    static let windPresets: [TuningPreset] = woodwind + reed + brass

    static let woodwind: [TuningPreset] = [
        .init("flute", "Flute (C4–C7)", .woodwind, range: 60...96),
        .init("piccolo", "Piccolo (D5–C8, sounding)", .woodwind, range: 74...108),
        .init("alto-flute", "Alto flute in G (G3–G6, sounding)", .woodwind, range: 55...91),
        .init("bass-flute", "Bass flute (C3–C6, sounding)", .woodwind, range: 48...84),
    ]

    static let reed: [TuningPreset] = [
        .init("oboe", "Oboe (Bb3–A6)", .reed, range: 58...93),
        .init("english-horn", "English horn in F (E3–C6, sounding)", .reed, range: 52...84),
        .init("clarinet-bb", "Clarinet in Bb (D3–Bb6, sounding)", .reed, range: 50...94),
        .init("clarinet-a", "Clarinet in A (C#3–A6, sounding)", .reed, range: 49...93),
        .init("bass-clarinet", "Bass clarinet in Bb (Bb1–Bb5, sounding)", .reed, range: 34...70),
        .init("bassoon", "Bassoon (Bb1–E5)", .reed, range: 34...76),
        .init("contrabassoon", "Contrabassoon (Bb0–C4, sounding)", .reed, range: 22...60),
        .init("soprano-sax", "Soprano sax in Bb (Ab3–E6, sounding)", .reed, range: 56...88),
        .init("alto-sax", "Alto sax in Eb (Db3–Ab5, sounding)", .reed, range: 49...80),
        .init("tenor-sax", "Tenor sax in Bb (Ab2–E5, sounding)", .reed, range: 44...76),
        .init("baritone-sax", "Baritone sax in Eb (Db2–Ab4, sounding)", .reed, range: 37...68),
    ]

    static let brass: [TuningPreset] = [
        .init("trumpet-bb", "Trumpet in Bb (E3–Bb5, sounding)", .brass, range: 52...82),
        .init("cornet", "Cornet in Bb (E3–Bb5, sounding)", .brass, range: 52...82),
        .init("flugelhorn", "Flugelhorn in Bb (E3–F5, sounding)", .brass, range: 52...77),
        .init("french-horn", "French horn in F (B1–F5, sounding)", .brass, range: 35...77),
        .init("trombone-tenor", "Tenor trombone (E2–F5)", .brass, range: 40...77),
        .init("trombone-bass", "Bass trombone (Bb1–Bb4)", .brass, range: 34...70),
        .init("euphonium", "Euphonium (Bb1–Bb4)", .brass, range: 34...70),
        .init("tuba-bb", "Tuba in BBb (E1–F4)", .brass, range: 28...65),
        .init("tuba-c", "Tuba in CC (D1–G4)", .brass, range: 26...67),
    ]
}
