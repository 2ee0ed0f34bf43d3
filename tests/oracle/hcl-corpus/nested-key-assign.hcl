a b = "c"
