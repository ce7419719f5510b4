import Foundation

/// A small bounded FIFO between two threads (render → encode).
final class BlockingQueue<T> {
    private var items: [T] = []
    private let capacity: Int
    private let condition = NSCondition()

    init(capacity: Int) { self.capacity = capacity }

    func push(_ item: T) {
        condition.lock()
        while items.count >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    func pop() -> T {
        condition.lock()
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        condition.unlock()
        return item
    }
}
