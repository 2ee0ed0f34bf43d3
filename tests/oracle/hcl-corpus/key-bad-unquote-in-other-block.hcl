vault {
  "\777" = "x"
}
data_dir = "/srv"
