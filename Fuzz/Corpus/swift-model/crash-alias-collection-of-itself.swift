typealias D = [D]
@Model final class C { var d: D = [] ; init() {} }
