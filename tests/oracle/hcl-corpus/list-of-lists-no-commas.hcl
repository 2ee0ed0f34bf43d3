x = [[1] [2]]
data_dir = "/srv"
