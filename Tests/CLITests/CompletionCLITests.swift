import Foundation
import XCTest

/// The bash completion that `--generate-completion-script bash` writes offers files and the
/// values of the enumerated options (issue 40 item 4), driven as bash drives it.
final class CompletionCLITests: XCTestCase {
    func testBashCompletesFilesAndOptionValues() throws {
        guard let bash = ["/bin/bash", "/usr/bin/bash"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw XCTSkip("no bash")
        }
        let dir = CLI.tempDir()
        for name in ["track.wav", "other.mp3", "pure.scl", "notes.txt"] { FileManager.default.createFile(atPath: dir + "/" + name, contents: Data()) }
        let script = try CLI.run(["--generate-completion-script", "bash"])
        XCTAssertEqual(script.status, 0, script.stderr)
        try script.stdout.write(toFile: dir + "/specviz.bash", atomically: true, encoding: .utf8)
        // Each line: the words typed; bash completes the last one, as `complete -F` calls it.
        let lines = [
            "render tr", "render x --mode s", "render x --preset guitar-s", "render x -o ot", "render x --cover tr",
            "render x --temperament w", "render x --temperament p", "tune x --preset cel", "analyze x --window blackman",
            "analyze x --weighting i", "render x --meter s", "render x --palette ma", "render x --scale m",
        ]
        let driver = """
            source ./specviz.bash
            PATH="$1:$PATH"
            while IFS= read -r line; do
              read -ra COMP_WORDS <<< "specviz $line"
              COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMP_LINE="specviz $line"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
              _specviz specviz "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
              echo "${COMPREPLY[*]}"
            done
            """
        try driver.write(toFile: dir + "/drive.sh", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: bash)
        p.arguments = ["--norc", "--noprofile", "drive.sh", URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path]
        p.currentDirectoryURL = URL(fileURLWithPath: dir)
        let input = Pipe(), output = Pipe()
        p.standardInput = input
        p.standardOutput = output
        try p.run()
        input.fileHandleForWriting.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        try input.fileHandleForWriting.close()
        let got = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        p.waitUntilExit()
        let offered = Dictionary(uniqueKeysWithValues: zip(lines, got.map { Set($0.split(separator: " ").map(String.init)) }))
        XCTAssertEqual(offered["render tr"], ["track.wav"])
        XCTAssertEqual(offered["render x --mode s"], ["spectrogram", "surface", "surface+", "scope"])
        XCTAssertEqual(offered["render x --preset guitar-s"], ["guitar-standard"])
        XCTAssertEqual(offered["render x -o ot"], ["other.mp3"])
        XCTAssertEqual(offered["render x --cover tr"], ["track.wav"])
        XCTAssertEqual(offered["render x --temperament w"], ["werckmeister3"])
        XCTAssertEqual(offered["render x --temperament p"], ["pythagorean", "pure.scl"])
        XCTAssertEqual(offered["tune x --preset cel"], ["cello"])
        XCTAssertEqual(offered["analyze x --window blackman"], ["blackman", "blackman-harris"])
        XCTAssertEqual(offered["analyze x --weighting i"], ["itu468"])
        XCTAssertEqual(offered["render x --meter s"], ["strobe"])
        XCTAssertEqual(offered["render x --palette ma"], ["magma"])
        XCTAssertEqual(offered["render x --scale m"], ["mel"])
    }
}
