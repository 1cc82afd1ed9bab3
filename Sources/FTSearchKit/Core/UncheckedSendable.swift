/// A value handed to another thread that the compiler cannot check: only one thread uses it at
/// a time (the sender gives it up), which the code handing it over documents.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) { self.value = value }
}
