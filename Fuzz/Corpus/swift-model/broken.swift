@Model class A {
    var x: Int =
}
