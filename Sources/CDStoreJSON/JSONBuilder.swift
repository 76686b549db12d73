/// Turns what ``JSONScanner`` finds into values of one kind. The scanner is generic over it, so the record path
/// (``JSONValue``) and the model path (``JSONNode``, with positions and number text) share one parser and each is
/// specialized without the other's costs.
protocol JSONBuilder {
    associatedtype Value
    associatedtype Member

    func null(at location: JSONLocation) -> Value
    func bool(_ value: Bool, at location: JSONLocation) -> Value
    func number(_ number: ScannedNumber, at location: JSONLocation) -> Value
    func string(_ value: String, at location: JSONLocation) -> Value
    func array(_ elements: [Value], at location: JSONLocation) -> Value
    func member(_ key: String, _ value: Value) -> Member
    func object(_ members: [Member], at location: JSONLocation) -> Value
}

/// Builds ``JSONValue``s, dropping positions.
struct ValueBuilder: JSONBuilder {
    @inline(__always) func null(at location: JSONLocation) -> JSONValue { .null }
    @inline(__always) func bool(_ value: Bool, at location: JSONLocation) -> JSONValue { .bool(value) }
    @inline(__always) func number(_ number: ScannedNumber, at location: JSONLocation) -> JSONValue {
        if let integer = number.integer { return .integer(integer) }
        return .double(number.double)
    }
    @inline(__always) func string(_ value: String, at location: JSONLocation) -> JSONValue { .string(value) }
    @inline(__always) func array(_ elements: [JSONValue], at location: JSONLocation) -> JSONValue { .array(elements) }
    @inline(__always) func member(_ key: String, _ value: JSONValue) -> (String, JSONValue) { (key, value) }
    @inline(__always) func object(_ members: [(String, JSONValue)], at location: JSONLocation) -> JSONValue {
        .object(members)
    }
}

/// Builds ``JSONNode``s, keeping where each value starts and numbers as written.
struct NodeBuilder: JSONBuilder {
    func null(at location: JSONLocation) -> JSONNode { JSONNode(.null, at: location) }
    func bool(_ value: Bool, at location: JSONLocation) -> JSONNode { JSONNode(.bool(value), at: location) }
    func number(_ number: ScannedNumber, at location: JSONLocation) -> JSONNode {
        JSONNode(.number(number.string), at: location)
    }
    func string(_ value: String, at location: JSONLocation) -> JSONNode { JSONNode(.string(value), at: location) }
    func array(_ elements: [JSONNode], at location: JSONLocation) -> JSONNode {
        JSONNode(.array(elements), at: location)
    }
    func member(_ key: String, _ value: JSONNode) -> (key: String, value: JSONNode) { (key, value) }
    func object(_ members: [(key: String, value: JSONNode)], at location: JSONLocation) -> JSONNode {
        JSONNode(.object(members), at: location)
    }
}
