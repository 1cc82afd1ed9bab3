import Testing
@testable import FTSearchEngine
@testable import FTSearchKit

@Suite struct TimestampTests {
    @Test(arguments: [
        ("2026-01-01T12:00:00Z", "2026-01-01T12:00:00.000Z"),
        ("2026-01-01", "2026-01-01T00:00:00.000Z"),
        ("2026-01-01T12:00", "2026-01-01T12:00:00.000Z"),
        ("2024-02-29 23:59:59.250", "2024-02-29T23:59:59.250Z"),
        ("2026-06-15T10:00:00+02:00", "2026-06-15T08:00:00.000Z"),
        ("1969-12-31T23:59:59.999Z", "1969-12-31T23:59:59.999Z"),
        ("2000-03-01T00:00:00-0130", "2000-03-01T01:30:00.000Z"),
    ])
    func parsesAndFormatsISO8601(input: String, expected: String) throws {
        let timestamp = try #require(Timestamp(iso8601: input))
        #expect(timestamp.description == expected)
        #expect(Timestamp(iso8601: timestamp.description) == timestamp)
    }

    @Test(arguments: [
        "", "2026", "2026-13-01", "2025-02-29", "2026-01-01T25:00", "2026-01-01T12:00:00Q",
        "yesterday", "2026-01-01T12:00:00.Z", "2026-1-1",
    ])
    func rejectsWhatIsNotADate(input: String) {
        #expect(Timestamp(iso8601: input) == nil)
    }

    @Test func epochIsTheOrigin() {
        #expect(Timestamp(millisecondsSinceEpoch: 0).description == "1970-01-01T00:00:00.000Z")
        #expect(Timestamp(millisecondsSinceEpoch: 0).secondsDescription == "1970-01-01T00:00:00Z")
    }

    @Test func textOrderIsTimeOrder() throws {
        let earlier = try #require(Timestamp(iso8601: "2026-01-01T09:59:59.999Z"))
        let later = try #require(Timestamp(iso8601: "2026-01-01T10:00:00Z"))
        #expect(earlier < later)
        #expect(earlier.description < later.description)
    }
}
