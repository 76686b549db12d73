import CDStorePredicate
import Foundation
import Testing
@testable import CDStoreEngine
@testable import CDStoreMigration

/// The Foundation selectors a mapping model's value expressions may call through `FUNCTION(x, "selector")`,
/// evaluated on a source object as a mapped migration does, and a selector outside the subset refused by name.
@Suite struct MappingExpressionTests {
    func value(_ text: String) throws -> EvaluationValue {
        var evaluator = PredicateEvaluator()
        evaluator.invocationHandler = MappingExpressionCheck.invoke
        let object = MappingSourceObject(values: ["name": .string("ada lovelace"), "age": .int(36), "code": .string("042")])
        evaluator.variables = ["source": .object(object)]
        return try evaluator.value(of: PredicateParser.parseExpression(text), with: .object(object))
    }

    func text(_ expression: String) throws -> String? {
        if case .string(let s) = try value(expression) { return s }
        return nil
    }

    @Test func stringSelectors() throws {
        #expect(try text(#"FUNCTION($source.name, "uppercaseString")"#) == "ADA LOVELACE")
        #expect(try text(#"FUNCTION($source.name, "capitalizedString")"#) == "Ada Lovelace")
        #expect(try text(#"FUNCTION($source.name, "stringByAppendingString:", "!")"#) == "ada lovelace!")
        #expect(try text(#"FUNCTION($source.name, "stringByReplacingOccurrencesOfString:withString:", " ", "_")"#) == "ada_lovelace")
        guard case .int(let length) = try value(#"FUNCTION($source.name, "length")"#) else { Issue.record("length is not an integer"); return }
        #expect(length == 12)
    }

    @Test func numberSelectorsAndArithmetic() throws {
        guard case .int(let code) = try value(#"FUNCTION($source.code, "intValue")"#) else { Issue.record("intValue is not an integer"); return }
        #expect(code == 42)
        guard case .int(let next) = try value("$source.age + 1") else { Issue.record("age + 1 is not an integer"); return }
        #expect(next == 37)
    }

    @Test func aSelectorOutsideTheSubsetIsRefusedByName() throws {
        #expect {
            _ = try value(#"FUNCTION($source.name, "fileSystemRepresentation")"#)
        } throws: { error in
            "\(error)".contains("fileSystemRepresentation")
        }
    }
}
