import CSQLite

extension Database {
    /// Runs `body`, making any statement it steps fail with `SQLITE_INTERRUPT` as soon as
    /// `shouldInterrupt` returns true. SQLite asks every `instructions` virtual-machine steps,
    /// from the connection's own thread (https://sqlite.org/c3ref/progress_handler.html), so
    /// `shouldInterrupt` may read a flag that another thread raises.
    ///
    /// Unlike `sqlite3_interrupt`, which a statement that starts after the call ignores, the
    /// check holds for every statement `body` runs.
    package func interruptingStatements<T>(
        when shouldInterrupt: @escaping @Sendable () -> Bool, every instructions: Int32 = 1000,
        _ body: () throws -> T
    ) throws -> T {
        installInterruptCheck(shouldInterrupt, every: instructions)
        defer { removeInterruptCheck() }
        return try body()
    }

    /// Installs `shouldInterrupt` as the connection's progress handler, replacing any other.
    package func installInterruptCheck(
        _ shouldInterrupt: @escaping @Sendable () -> Bool, every instructions: Int32 = 1000
    ) {
        let check = InterruptCheck(shouldInterrupt)
        interruptCheck = check
        sqlite3_progress_handler(
            handle, instructions,
            { context in
                guard let context else { return 0 }
                let check = Unmanaged<InterruptCheck>.fromOpaque(context).takeUnretainedValue()
                return check.shouldInterrupt() ? 1 : 0
            }, Unmanaged.passUnretained(check).toOpaque())
    }

    /// Removes the progress handler that ``installInterruptCheck(_:every:)`` installed.
    package func removeInterruptCheck() {
        sqlite3_progress_handler(handle, 0, nil, nil)
        interruptCheck = nil
    }
}

/// The closure a progress handler calls, boxed so that C can hold a pointer to it.
package final class InterruptCheck {
    package let shouldInterrupt: @Sendable () -> Bool

    package init(_ shouldInterrupt: @escaping @Sendable () -> Bool) {
        self.shouldInterrupt = shouldInterrupt
    }
}
