/// A value type's fields held in one object, for values that are copied far more often than
/// changed (a transfer's options, its outcome, an exchange's result): a copy of the value costs
/// one reference count, and the value copies the fields before changing a shared object
/// (`makeUnique`).
///
/// Unchecked Sendable: each object is reached only through the value that holds it, and is
/// changed only while that value holds the sole reference, so never while shared. Its field is
/// exempt from dynamic exclusivity checks, which cost more than the copies they guard: the
/// value's own accesses are checked statically.
package final class SharedFields<Fields>: @unchecked Sendable {
    @exclusivity(unchecked) package var fields: Fields

    package init(_ fields: Fields) {
        self.fields = fields
    }

    /// A new object with the same fields.
    package func copy() -> SharedFields {
        SharedFields(fields)
    }

    /// Gives `storage` an object of its own before its value changes it: the same object when no
    /// other value holds it, else a copy of its fields.
    package static func makeUnique(_ storage: inout SharedFields) {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }
}
