import CDStoreJSON
import Testing

/// The decimal fast path gives exactly what `Double(String)` gives, or leaves the text to it.
@Suite("Decimal text")
struct DecimalTextTests {
    @Test(arguments: [
        "0", "-0", "0.1", "12345.67", "-0.0", "007.5", "153479.09", "9007199254740992", "0.30000000000000004",
        "123456789.123456789", "1.0000000000000000000001", "4.35", "-99999.999",
    ])
    func plainDecimalsMatchDoubleParsing(text: String) {
        guard let fast = DecimalText.double(text) else {
            // Beyond the fast path (more than 19 digits, or 2^53): the general parse is the caller's.
            #expect(text.filter(\.isNumber).count > 15, "\(text) should be within the fast path")
            return
        }
        #expect(fast.bitPattern == Double(text)!.bitPattern, "\(text)")
    }

    @Test(arguments: [
        "", "-", ".5", "5.", "1e5", "1E+2", "+1", " 1", "1 ", "1.2.3", "--1", "0x1p3", "inf", "nan", "1,5",
        "9007199254740993", "12345678901234567890", "0.00000000000000000000001",
    ])
    func otherTextIsLeftToTheGeneralParse(text: String) {
        #expect(DecimalText.double(text) == nil, "\(text)")
    }

    @Test func randomDecimalsMatchDoubleParsing() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...17, using: &generator)
            let mantissa = String((0..<digits).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            let point = Int.random(in: 0...digits, using: &generator)
            var text = point == 0 || point == digits ? mantissa
                : String(mantissa.prefix(point)) + "." + String(mantissa.dropFirst(point))
            if Bool.random(using: &generator) { text = "-" + text }
            guard let fast = DecimalText.double(text) else { continue }
            #expect(fast.bitPattern == Double(text)!.bitPattern, "\(text)")
        }
    }
}
