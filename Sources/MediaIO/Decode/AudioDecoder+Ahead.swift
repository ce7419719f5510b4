import Foundation
import SpecvizCore

extension AudioDecoder {
    /// Reads the whole input as mono (`readMono`) with the decoding on a second thread, up to
    /// `depth` chunks of `chunk` samples ahead, and hands each chunk to `body` on the calling
    /// thread in order. A file analysis (`tune`, `tempo`) then decodes while it analyses
    /// instead of between analyses. A decoding error is rethrown after the chunks before it;
    /// an error thrown by `body` stops the decoding thread and is rethrown.
    public func forEachMonoChunk(
        chunk: Int = 8192, depth: Int = 4, _ body: (UnsafeBufferPointer<Float>) throws -> Void
    ) throws {
        try forEachMonoChunk(chunk: chunk, depth: depth, payload: { () }, prepare: { _, _ in }) { samples, _ in
            try body(samples)
        }
    }

    /// `forEachMonoChunk`, and on the decoding thread `prepare` works on each chunk ahead
    /// (whatever of the analysis does not depend on the chunks before it), filling a
    /// `Payload` that `body` receives with the chunk. `depth` payloads are made with
    /// `payload` and reused.
    public func forEachMonoChunk<Payload>(
        chunk: Int = 8192, depth: Int = 4, payload: () -> Payload,
        prepare: @escaping (UnsafeBufferPointer<Float>, Payload) -> Void,
        _ body: (UnsafeBufferPointer<Float>, Payload) throws -> Void
    ) throws {
        precondition(chunk > 0 && depth > 0)
        // A chunk keeps its `chunk` floats from one use to the next; `count` of them are read.
        typealias Item = (samples: [Float], count: Int, payload: Payload)
        let free = BlockingQueue<Item?>(capacity: depth)
        let full = BlockingQueue<Result<Item, Error>?>(capacity: depth)
        for _ in 0..<depth { free.push(([Float](repeating: 0, count: chunk), 0, payload())) }
        let stop = Locked(false)
        let producer = Thread { [self] in
            while !stop.value, var item = free.pop() {
                do {
                    let n = try item.samples.withUnsafeMutableBufferPointer { try readMono(into: $0) }
                    if n == 0 { break }
                    item.count = n
                    item.samples.withUnsafeBufferPointer { prepare(UnsafeBufferPointer(rebasing: $0[..<n]), item.payload) }
                    full.push(.success(item))
                } catch {
                    full.push(.failure(error))
                    break
                }
            }
            full.push(nil)
        }
        producer.start()
        // On the way out (an error from either side), let the producer finish: stop it, wake
        // it if it waits for a free chunk, and take what it still pushes.
        func drain() {
            stop.update { $0 = true }
            while true {
                free.push(nil) // never blocks: at most `depth` items are ever in circulation
                guard case .some = full.pop() else { break }
            }
        }
        while let result = full.pop() {
            switch result {
            case .failure(let error):
                drain()
                throw error
            case .success(let item):
                do {
                    try item.samples.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<item.count]), item.payload) }
                } catch {
                    drain()
                    throw error
                }
                free.push(item)
            }
        }
    }
}
