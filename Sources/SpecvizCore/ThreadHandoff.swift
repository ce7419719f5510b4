import Foundation

/// A small bounded FIFO between two threads (render → encode, convert → x264).
/// `push` waits while it is full, `pop` while it is empty.
public final class BlockingQueue<T>: @unchecked Sendable {
    /// A ring of `capacity` slots: pushing and popping move no elements and allocate
    /// nothing (the render's frames pass through one every frame).
    private var slots: [T?]
    private var head = 0, count = 0
    private let condition = NSCondition()

    public init(capacity: Int) { slots = Array(repeating: nil, count: max(1, capacity)) }

    public func push(_ item: T) {
        condition.lock()
        while count >= slots.count { condition.wait() }
        slots[(head + count) % slots.count] = item
        count += 1
        condition.broadcast()
        condition.unlock()
    }

    public func pop() -> T {
        condition.lock()
        while count == 0 { condition.wait() }
        let item = slots[head].take()!
        head = (head + 1) % slots.count
        count -= 1
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
