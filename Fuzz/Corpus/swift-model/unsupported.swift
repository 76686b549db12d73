struct P { var x: Int }
@Model class A { var p: P; var t: (Int, Int) }
