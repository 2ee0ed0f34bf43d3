# ÿ
data_dir = "/srv"
