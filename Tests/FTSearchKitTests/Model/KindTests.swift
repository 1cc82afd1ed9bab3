import FTSearchModels
import Testing

@Suite struct KindTests {
    /// A set of kinds lists them in their fixed order, people first, whatever the set's hashing.
    @Test func setsOfKindsAreInTheirFixedOrder() {
        #expect(Set<Kind>.all.inOrder == [.people, .animals])
        #expect(Set<Kind>([.animals, .people]).inOrder == [.people, .animals])
        #expect(Set<Kind>.people.inOrder == [.people])
        #expect(Set<Kind>.animals.inOrder == [.animals])
        #expect(Set<Kind>().inOrder == [])
    }
}
