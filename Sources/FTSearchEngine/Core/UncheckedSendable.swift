/// A value handed to another thread that the compiler cannot check: only one thread uses it at
/// a time (the sender gives it up), which the code handing it over documents.
package struct UncheckedSendable<Value>: @unchecked Sendable {
    package let value: Value

    package init(_ value: Value) { self.value = value }
}
