import Analysis
import Foundation
import Synth

/// The benchmarks of the pitch, tempo and tone modules, printed by `specviz bench`.
enum ExtraBenchmarks {
    static func lines() -> [String] {
        []
    }
}
