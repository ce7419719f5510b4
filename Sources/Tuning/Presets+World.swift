// Steel guitar, Latin folk, Indian classical and lute presets (seed 004, section 3.6).
// Indian instruments are tuned to a movable tonic (Sa); the presets use the common tonic
// named in each entry (C# for sitar: Ma Sa Pa Sa Pa Sa Sa = F#3 C#3 G#2 C#2 G#3 C#4 C#5).
// Comments spell the notes; Tests/TuningTests checks them against the numbers.

extension TuningPreset {
    static let steel: [TuningPreset] = [
        .init("lap-steel-c6", "Lap steel C6 (C E G A C E)", .steelGuitar, midi: [48, 52, 55, 57, 60, 64]), // C3 E3 G3 A3 C4 E4
        .init("lap-steel-a6", "Lap steel A6 (C# E F# A C# E)", .steelGuitar, midi: [49, 52, 54, 57, 61, 64]), // C#3 E3 F#3 A3 C#4 E4
        .init("lap-steel-e7", "Lap steel E7 (B D E G# B E)", .steelGuitar, midi: [47, 50, 52, 56, 59, 64]), // B2 D3 E3 G#3 B3 E4
        .init("lap-steel-open-e", "Lap steel open E (E B E G# B E)", .steelGuitar, midi: [40, 47, 52, 56, 59, 64]), // E2 B2 E3 G#3 B3 E4
        .init("lap-steel-open-d", "Lap steel open D (D A D F# A D)", .steelGuitar, midi: [38, 45, 50, 54, 57, 62]), // D2 A2 D3 F#3 A3 D4
        .init("dobro-open-g", "Dobro open G (G B D G B D)", .steelGuitar, midi: [43, 47, 50, 55, 59, 62]), // G2 B2 D3 G3 B3 D4
        // B2 D3 E3 F#3 G#3 B3 E4 G#4 D#4 F#4
        .init("pedal-steel-e9", "Pedal steel E9 (10 strings)", .steelGuitar, midi: [47, 50, 52, 54, 56, 59, 64, 68, 63, 66]),
        .init("pedal-steel-c6", "Pedal steel C6 (10 strings)", .steelGuitar, midi: [36, 41, 45, 48, 52, 55, 57, 60, 64, 67]), // C2 F2 A2 C3 E3 G3 A3 C4 E4 G4
    ]

    static let latin: [TuningPreset] = [
        .init("charango", "Charango (G C E A E)", .latinFolk, midi: [67, 72, 64, 69, 76]), // G4 C5 E4 A4 E5
        .init("ronroco", "Ronroco (D G B E B)", .latinFolk, midi: [62, 67, 59, 64, 71]), // D4 G4 B3 E4 B4
        .init("cuatro-venezolano", "Cuatro venezolano (A D F# B)", .latinFolk, midi: [57, 62, 66, 59]), // A3 D4 F#4 B3
        .init("cuatro-puertorriqueno", "Cuatro puertorriqueño (B E A D G)", .latinFolk, midi: [47, 52, 57, 62, 67]), // B2 E3 A3 D4 G4
        .init("tres-cubano", "Tres cubano (G C E)", .latinFolk, midi: [55, 60, 64]), // G3 C4 E4
        .init("jarana-jarocha", "Jarana jarocha (G C E A G)", .latinFolk, midi: [55, 60, 64, 69, 67]), // G3 C4 E4 A4 G4
        .init("vihuela-mexicana", "Vihuela mexicana (A D G B E)", .latinFolk, midi: [57, 62, 67, 59, 64]), // A3 D4 G4 B3 E4
        .init("guitarron", "Guitarrón mexicano (A D G C E A)", .latinFolk, midi: [33, 38, 43, 48, 52, 45]), // A1 D2 G2 C3 E3 A2
        .init("requinto", "Requinto (A D G C E A)", .latinFolk, midi: [45, 50, 55, 60, 64, 69]), // A2 D3 G3 C4 E4 A4
        .init("cavaquinho-brazil", "Cavaquinho, Brazil (D G B D)", .latinFolk, midi: [62, 67, 71, 74]), // D4 G4 B4 D5
        .init("cavaquinho-portugal", "Cavaquinho, Portugal (D G B E)", .latinFolk, midi: [62, 67, 71, 76]), // D4 G4 B4 E5
    ]

    static let indian: [TuningPreset] = [
        .init("sitar-kharaj-pancham", "Sitar, kharaj-pancham (Sa C#)", .indianClassical, midi: [54, 49, 44, 37, 56, 61, 73]), // F#3 C#3 G#2 C#2 G#3 C#4 C#5
        .init("sitar-gandhar-pancham", "Sitar, gandhar-pancham (Sa C#)", .indianClassical, midi: [54, 49, 53, 56, 61, 73]), // F#3 C#3 F3 G#3 C#4 C#5
        .init("surbahar", "Surbahar (Sa A)", .indianClassical, midi: [50, 45, 40, 33, 52, 57, 69]), // D3 A2 E2 A1 E3 A3 A4
        .init("sarod", "Sarod (Sa C)", .indianClassical, midi: [53, 48, 43, 36, 60, 72]), // F3 C3 G2 C2 C4 C5
        .init("tanpura-pa", "Tanpura, male, Pa (Sa C#)", .indianClassical, midi: [44, 49, 49, 37]), // G#2 C#3 C#3 C#2
        .init("tanpura-ma", "Tanpura, male, Ma (Sa C#)", .indianClassical, midi: [42, 49, 49, 37]), // F#2 C#3 C#3 C#2
        .init("tanpura-female", "Tanpura, female, Pa (Sa G#)", .indianClassical, midi: [51, 56, 56, 44]), // D#3 G#3 G#3 G#2
        .init("veena", "Saraswati veena (Sa E)", .indianClassical, midi: [52, 47, 40, 35]), // E3 B2 E2 B1
        .init("dilruba", "Dilruba (Sa C#)", .indianClassical, midi: [54, 49, 44, 37]), // F#3 C#3 G#2 C#2
        .init("esraj", "Esraj (Sa C)", .indianClassical, midi: [53, 48, 43, 36]), // F3 C3 G2 C2
        .init("sarangi", "Sarangi (Sa D)", .indianClassical, midi: [62, 57, 50]), // D4 A3 D3
        .init("erhu", "Erhu (D A)", .indianClassical, midi: [62, 69]), // D4 A4
    ]

    static let lute: [TuningPreset] = [
        .init("renaissance-lute", "Renaissance lute, 6 courses (G C F A D G)", .lute, midi: [43, 48, 53, 57, 62, 67]), // G2 C3 F3 A3 D4 G4
        .init("renaissance-lute-8", "Renaissance lute, 8 courses", .lute, midi: [38, 41, 43, 48, 53, 57, 62, 67]), // D2 F2 G2 C3 F3 A3 D4 G4
        // A1 B1 C2 D2 E2 F2 G2 A2 D3 F3 A3 D4 F4
        .init("baroque-lute", "Baroque lute, 13 courses (D minor)", .lute, midi: [33, 35, 36, 38, 40, 41, 43, 45, 50, 53, 57, 62, 65]),
        // G1 A1 B1 C2 D2 E2 F2 G2 A2 D3 G3 B3 E3 A3
        .init("theorbo", "Theorbo in A, 14 courses", .lute, midi: [31, 33, 35, 36, 38, 40, 41, 43, 45, 50, 55, 59, 52, 57]),
        .init("vihuela", "Vihuela de mano (G C F A D G)", .lute, midi: [43, 48, 53, 57, 62, 67]), // G2 C3 F3 A3 D4 G4
        .init("cittern", "Renaissance cittern (b g d e)", .lute, midi: [59, 55, 62, 64]), // B3 G3 D4 E4
        .init("oud-arabic", "Oud, Arabic (C F A D G C)", .lute, midi: [36, 41, 45, 50, 55, 60]), // C2 F2 A2 D3 G3 C4
        .init("oud-turkish", "Oud, Turkish (E A B E A D)", .lute, midi: [40, 45, 47, 52, 57, 62]), // E2 A2 B2 E3 A3 D4
    ]
}
