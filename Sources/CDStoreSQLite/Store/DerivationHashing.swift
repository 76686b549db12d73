import CDStoreModel
import CDStorePredicate

/// Derived attributes are hashed from their expression as Foundation prints it (coredata-format.md §2.2). The
/// model layer cannot import the predicate printer, so the layers above install it here.
public enum DerivationHashing {
    /// Makes ``VersionHasher`` print derivation expressions with cdstore's NSExpression printer.
    public static func install() {
        guard VersionHasher.derivationFormatter == nil else { return }
        VersionHasher.derivationFormatter = { text in
            (try? PredicateParser.parseExpression(text)).map { PredicateFormatter.format($0) }
        }
    }
}
