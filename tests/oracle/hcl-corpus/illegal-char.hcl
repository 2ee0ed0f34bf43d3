data_dir = "/srv"
@
