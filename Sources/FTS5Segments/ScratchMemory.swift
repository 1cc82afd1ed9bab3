import Synchronization

/// Memory that decoded doclists are written to, kept from one search to the next.
///
/// A search decodes its phrases' doclists into buffers of up to a few MiB (``DoclistEntries``,
/// ``PhrasePositions``) and frees them when it ends. Blocks that large come from the kernel
/// (malloc maps them, and unmaps them when freed), so every search took page faults on
/// fresh memory and copied its lists each time one outgrew its buffer. Blocks of
/// ``smallestKept`` bytes or more given back are kept here, up to ``mostKept`` bytes in all,
/// and the next buffer that needs one takes the smallest kept block that holds it, whole.
package final class ScratchMemory: Sendable {
    /// A block of memory, aligned for any of the values the lists hold.
    package struct Block: @unchecked Sendable {
        let start: UnsafeMutableRawPointer
        let byteCount: Int
    }

    /// The memory every search shares.
    package static let shared = ScratchMemory()

    /// Blocks smaller than this are freed when given back: malloc serves them from memory it
    /// keeps anyway.
    package static let smallestKept = 64 << 10
    /// The most bytes kept, and the most blocks.
    package let mostKept: Int
    package let mostBlocks: Int

    /// The kept blocks, smallest first.
    private let kept = Mutex<[Block]>([])

    package init(mostKept: Int = 64 << 20, mostBlocks: Int = 32) {
        self.mostKept = mostKept
        self.mostBlocks = mostBlocks
    }

    /// A block of at least `byteCount` bytes: the smallest kept one that holds them (the
    /// largest, `toGrow` a buffer, which then need not grow again as soon), else a new one of
    /// that size.
    package func take(atLeast byteCount: Int, toGrow: Bool = false) -> Block {
        if byteCount >= Self.smallestKept,
            let block = kept.withLock({ blocks -> Block? in
                guard let largest = blocks.last, largest.byteCount >= byteCount else { return nil }
                guard !toGrow else { return blocks.removeLast() }
                return blocks.firstIndex { $0.byteCount >= byteCount }.map {
                    blocks.remove(at: $0)
                }
            })
        {
            return block
        }
        let size = max(byteCount, 16)
        return Block(start: .allocate(byteCount: size, alignment: 16), byteCount: size)
    }

    /// Takes `block` back: kept for a later ``take(atLeast:)`` when it is large enough and
    /// fits, else freed. Past the limits the smallest blocks kept are freed first.
    package func give(_ block: Block) {
        guard block.byteCount >= Self.smallestKept, block.byteCount <= mostKept else {
            return block.start.deallocate()
        }
        let freed = kept.withLock { blocks -> [Block] in
            let index = blocks.firstIndex { $0.byteCount >= block.byteCount } ?? blocks.endIndex
            blocks.insert(block, at: index)
            var total = blocks.reduce(0) { $0 + $1.byteCount }
            var freed: [Block] = []
            while total > mostKept || blocks.count > mostBlocks {
                let smallest = blocks.removeFirst()
                total -= smallest.byteCount
                freed.append(smallest)
            }
            return freed
        }
        for block in freed { block.start.deallocate() }
    }

    /// The bytes kept now.
    package var keptByteCount: Int { kept.withLock { $0.reduce(0) { $0 + $1.byteCount } } }
}

/// A growable array of plain values in a block of ``ScratchMemory``: what the doclist lists
/// keep their rowids, hits and positions in. Its owner calls ``release()`` once, when done.
package struct ScratchBuffer<Element: BitwiseCopyable> {
    private let memory: ScratchMemory
    private var block: ScratchMemory.Block
    package private(set) var pointer: UnsafeMutablePointer<Element>

    /// Room for at least `minimumCapacity` values (see ``ScratchMemory/take(atLeast:toGrow:)``).
    package init(minimumCapacity: Int, toGrow: Bool = false, in memory: ScratchMemory = .shared) {
        self.memory = memory
        block = memory.take(
            atLeast: minimumCapacity * MemoryLayout<Element>.stride, toGrow: toGrow)
        pointer = block.start.bindMemory(
            to: Element.self, capacity: block.byteCount / MemoryLayout<Element>.stride)
    }

    /// How many values fit.
    package var capacity: Int { block.byteCount / MemoryLayout<Element>.stride }

    /// Makes room for at least `wanted` values (when it must move, for at least twice as many
    /// as fitted, in the largest block kept), keeping the first `count`.
    package mutating func reserve(_ wanted: Int, keeping count: Int) {
        guard wanted > capacity else { return }
        let grown = ScratchBuffer(
            minimumCapacity: max(wanted, 2 * capacity), toGrow: true, in: memory)
        grown.pointer.update(from: pointer, count: count)
        release()
        self = grown
    }

    /// Gives the memory back.
    package func release() { memory.give(block) }
}
