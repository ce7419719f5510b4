import Foundation
import XCTest

@testable import Tuning

final class PresetsTests: XCTestCase {
    func testCatalogueSizeAndGroups() {
        XCTAssertGreaterThanOrEqual(TuningPreset.all.count, 101, "100+ presets besides chromatic")
        for g in PresetGroup.allCases {
            XCTAssertFalse(TuningPreset.presets(in: g).isEmpty, "group \(g.name) is empty")
        }
        XCTAssertEqual(TuningPreset.all.first?.id, "chromatic")
        XCTAssertTrue(TuningPreset.chromatic.isChromatic)
    }

    func testIdsUniqueAndWellFormed() {
        var seen = Set<String>()
        for p in TuningPreset.all {
            XCTAssertTrue(seen.insert(p.id).inserted, "duplicate id \(p.id)")
            XCTAssertTrue(p.id.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "-" }, p.id)
            XCTAssertFalse(p.name.isEmpty)
            if p.group != .chromatic {
                XCTAssertFalse(p.notes.isEmpty, p.id)
                // Every note inside B0-1 … C8 (MIDI 20…108).
                XCTAssertTrue(p.notes.allSatisfy { (20...108).contains($0.midi) }, p.id)
            }
        }
    }

    func testNamedLookup() {
        XCTAssertEqual(
            TuningPreset.named("guitar-standard")?.notes.map { $0.name() },
            ["E2", "A2", "D3", "G3", "B3", "E4"])
        XCTAssertEqual(TuningPreset.named("Guitar_Standard")?.id, "guitar-standard")
        XCTAssertEqual(TuningPreset.named("CHROMATIC")?.id, "chromatic")
        XCTAssertNil(TuningPreset.named("kazoo-drop-z"))
        XCTAssertEqual(TuningPreset.named("bass-standard")?.notes.map(\.midi), [28, 33, 38, 43])
        XCTAssertEqual(TuningPreset.named("violin")?.notes.map { $0.name() }, ["G3", "D4", "A4", "E5"])
        XCTAssertEqual(TuningPreset.named("cello")?.notes.map { $0.name() }, ["C2", "G2", "D3", "A3"])
    }

    /// Seed 004, 3.6: 110 Hz in Guitar Standard targets A2, not the chromatic nearest.
    func testTargetingInGuitarStandard() {
        let g = TuningPreset.named("guitar-standard")!
        XCTAssertEqual(g.target(for: 110).name(), "A2")
        XCTAssertEqual(g.target(for: 82.41).name(), "E2")
        // 92.5 Hz (F#2) is nearer to E2 (82.4) than A2 (110) in cents? 200 vs 300 cents: E2.
        XCTAssertEqual(g.target(for: 92.5).name(), "E2")
        let (t, c) = g.offset(of: 116.54) // A#2, +100 cents over A2
        XCTAssertEqual(t.name(), "A2")
        XCTAssertEqual(c, 100, accuracy: 0.1)
        // Chromatic: nearest semitone.
        XCTAssertEqual(TuningPreset.chromatic.target(for: 116.54).name(), "A#2")
        // Reference pitch moves the targets: 432 Hz A4.
        let (t2, c2) = g.offset(of: 108, reference: 432)
        XCTAssertEqual(t2.name(), "A2")
        XCTAssertEqual(c2, 0, accuracy: 0.01)
    }

    func testWindRangesAreChromatic() {
        let flute = TuningPreset.named("flute")!
        XCTAssertEqual(flute.notes.first?.name(), "C4")
        XCTAssertEqual(flute.target(for: 466.16).name(), "A#4")
        XCTAssertEqual(flute.target(for: 130.81).name(), "C4", "below range: nearest end")
    }

    /// The catalogue's comments spell every tuning by name; check them against the numbers
    /// so a typo in either shows up.
    func testCatalogueCommentsMatchMidiNumbers() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/Tuning").standardized
        var checked = 0
        for file in ["Presets+Strings.swift", "Presets+World.swift"] {
            let text = try String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            for (i, line) in lines.enumerated() where line.contains("midi: [") {
                let idStart = line.range(of: ".init(\"")!.upperBound
                let id = String(line[idStart...].prefix { $0 != "\"" })
                // At the end of the line, or on the line above when the line is long.
                let above = i > 0 && lines[i - 1].trimmingCharacters(in: .whitespaces).hasPrefix("//") ? lines[i - 1] : nil
                guard let text = line.contains("//") ? line : above, let comment = text.range(of: "//") else {
                    XCTFail("no comment: \(id)"); continue
                }
                let names = text[comment.upperBound...].split(separator: " ").map(String.init)
                let preset = try XCTUnwrap(TuningPreset.named(id), id)
                XCTAssertEqual(preset.notes.map { $0.name() }, names, id)
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 80)
    }
}
