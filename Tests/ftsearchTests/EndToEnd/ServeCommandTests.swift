import Testing
import FTSearchTestSupport

/// `ftsearch serve` as the command line meets it; the server itself is tested from outside,
/// over HTTP and in a browser, by Tests/ServerTests (pytest).
@Suite struct ServeCommandTests {
    let ftsearch: FTSearchRunner

    init() throws {
        ftsearch = try FTSearchRunner()
    }

    @Test(arguments: ["0.0.0.0", "192.168.1.10", "::"])
    func anotherAddressWithoutAKeyIsRefused(host: String) throws {
        let outcome = try ftsearch.run(["serve", "--host", host, "--port", "0"])
        #expect(outcome.exitCode == 64)
        #expect(outcome.standardOutput.isEmpty)
        #expect(outcome.standardError.contains("Refusing to serve \(host) without a key"))
    }

    @Test func badOptionsAreUsageErrors() throws {
        #expect(try ftsearch.run(["serve", "--port", "70000"]).exitCode == 64)
        #expect(try ftsearch.run(["serve", "--api-key", ""]).exitCode == 64)
        #expect(try ftsearch.run(["serve", "--body-timeout", "0"]).exitCode == 64)
    }

    @Test func aKeyFromTheEnvironmentCountsAsAKey() throws {
        // Reaching the server means validation passed: a missing database then stops it.
        let outcome = try ftsearch.run(
            [
                "serve", "--host", "0.0.0.0", "--port", "0", "--db",
                ftsearch.directory + "/none.sqlite",
                "--read-only",
            ],
            environment: ["FTSEARCH_API_KEY": "k"])
        #expect(outcome.exitCode == 66)
        #expect(outcome.standardError.hasPrefix("Error: "))
        #expect(!outcome.standardError.contains("Refusing"))
    }
}
