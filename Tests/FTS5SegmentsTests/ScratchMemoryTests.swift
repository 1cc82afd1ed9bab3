import Testing

@testable import FTS5Segments

/// The memory decoded doclists are written to (``ScratchMemory``) is reused from one list to
/// the next, and keeps no more than its limits.
@Suite struct ScratchMemoryTests {
    let large = ScratchMemory.smallestKept

    @Test func aBlockGivenBackIsTakenAgainWhole() {
        let memory = ScratchMemory()
        let block = memory.take(atLeast: 3 * large)
        memory.give(block)
        #expect(memory.keptByteCount == 3 * large)
        let again = memory.take(atLeast: 2 * large)
        #expect(again.start == block.start)
        #expect(again.byteCount == 3 * large)
        #expect(memory.keptByteCount == 0)
        memory.give(again)
    }

    @Test func theSmallestBlockThatHoldsARequestIsTaken() {
        let memory = ScratchMemory()
        let blocks = [4, 2, 8].map { memory.take(atLeast: $0 * large) }
        for block in blocks { memory.give(block) }
        #expect(memory.take(atLeast: 3 * large).start == blocks[0].start)
        #expect(memory.take(atLeast: large).start == blocks[1].start)
        #expect(memory.take(atLeast: 9 * large).byteCount == 9 * large)
    }

    @Test func smallBlocksAndBlocksPastTheLimitsAreFreed() {
        let memory = ScratchMemory(mostKept: 10 * large, mostBlocks: 2)
        memory.give(memory.take(atLeast: large / 2))
        #expect(memory.keptByteCount == 0)
        memory.give(memory.take(atLeast: 11 * large))
        #expect(memory.keptByteCount == 0)
        for size in [1, 2, 3] { memory.give(memory.take(atLeast: size * large)) }
        // Three blocks, two kept: the smallest went.
        #expect(memory.keptByteCount == 5 * large)
        memory.give(memory.take(atLeast: 6 * large))
        #expect(memory.keptByteCount <= 10 * large)
    }

    @Test func aBufferKeepsItsValuesWhenItGrows() {
        let memory = ScratchMemory()
        var buffer = ScratchBuffer<Int64>(minimumCapacity: 4, in: memory)
        for value in 0..<4 { buffer.pointer[value] = Int64(value) * 7 }
        buffer.reserve(large, keeping: 4)
        #expect(buffer.capacity >= large)
        #expect((0..<4).map { buffer.pointer[$0] } == [0, 7, 14, 21])
        buffer.release()
        #expect(memory.keptByteCount >= large * MemoryLayout<Int64>.stride)
    }
}
