import Foundation

/// A small bounded FIFO between two threads (render → encode, convert → x264).
/// `push` waits while it is full, `pop` while it is empty.
public final class BlockingQueue<T>: @unchecked Sendable {
    private var items: [T] = []
    private let capacity: Int
    private let condition = NSCondition()

    public init(capacity: Int) { self.capacity = capacity }

    public func push(_ item: T) {
        condition.lock()
        while items.count >= capacity { condition.wait() }
        items.append(item)
        condition.broadcast()
        condition.unlock()
    }

    public func pop() -> T {
        condition.lock()
        while items.isEmpty { condition.wait() }
        let item = items.removeFirst()
        condition.broadcast()
        condition.unlock()
        return item
    }
}

/// A value set by one thread and read by another (a stop flag, a worker's first error).
public final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    public init(_ value: Value) { stored = value }

    public var value: Value {
        lock.lock(); defer { lock.unlock() }
        return stored
    }

    /// Changes the value under the lock.
    public func update(_ change: (inout Value) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&stored)
    }
}
