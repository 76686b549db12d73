typealias A = B.X
typealias B = A.Y
@Model final class C { var a: A? ; init() {} }
