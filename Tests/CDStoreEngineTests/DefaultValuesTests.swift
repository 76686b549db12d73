import CDStoreModel
import GRDB
import Testing
@testable import CDStoreEngine

/// Defaults Xcode accepts although they do not parse as their type (seen in kiwix, LoopKit, Trio, WooCommerce
/// and Moonlight) are read as momc reads them, through NSString's number and boolean readings.
@Suite("Default values")
struct DefaultValuesTests {
    func stored(_ type: AttributeType, _ text: String) throws -> DatabaseValue {
        var attribute = Attribute(name: "a", type: type, isOptional: false)
        attribute.defaultValue = text
        return try DefaultValues.storedDefault(for: attribute)
    }

    @Test func validDefaultsAreReadAsUsual() throws {
        #expect(try stored(.boolean, "YES") == 1.databaseValue)
        #expect(try stored(.integer32, "42") == 42.databaseValue)
        #expect(try stored(.double, "1.5") == 1.5.databaseValue)
    }

    @Test func defaultsXcodeAcceptsAreReadLikeNSString() throws {
        #expect(try stored(.boolean, "0.0") == 0.databaseValue)
        #expect(try stored(.boolean, "1.0") == 1.databaseValue)
        #expect(try stored(.boolean, "true") == 1.databaseValue)
        #expect(try stored(.integer32, "YES") == 0.databaseValue)
        #expect(try stored(.integer64, "NO") == 0.databaseValue)
        #expect(try stored(.integer16, "0.0") == 0.databaseValue)
        #expect(try stored(.integer16, "12abc") == 12.databaseValue)
        #expect(try stored(.double, "x") == 0.0.databaseValue)
        #expect(try stored(.uuid, "empy") == .null)
    }

    @Test func anIntegerDefaultOutOfRangeIsStillAnError() {
        let error = #expect(throws: StoreError.self) { try stored(.integer16, "70000") }
        #expect(error?.code == .invalidInput)
        #expect(error?.description == "the model's default value '70000' is out of range for Integer 16")
    }
}
