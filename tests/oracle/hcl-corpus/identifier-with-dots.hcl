data.dir = "/x"
data_dir = "/srv"
