data_dir = "/srv"
client_x =