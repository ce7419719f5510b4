import CKernels
import Foundation

/// A render started by a batch dies with the batch (issue 36): it asks the kernel for
/// SIGTERM when its parent goes (PR_SET_PDEATHSIG), handles that signal as any stop
/// (its temporaries go, exit 143), and stops at once if the parent is already gone.
enum BatchChild {
    /// Set by the batch to its pid in each child's environment.
    static let parentVariable = "SPECVIZ_BATCH_PARENT"

    /// True in a render started by a batch.
    nonisolated(unsafe) private(set) static var isChild = false

    static func linkToParent() {
        guard let text = getenv(parentVariable) else { return }
        isChild = true
        let parent = pid_t(String(cString: text))
        unsetenv(parentVariable)
        guard let parent else { return }
        Termination.install()
        _ = spv_die_with_parent(SIGTERM)
        // The parent ended before the request took effect.
        if getppid() != parent { kill(getpid(), SIGTERM) }
    }
}
