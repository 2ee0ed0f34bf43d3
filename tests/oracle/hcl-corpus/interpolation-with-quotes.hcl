data_dir = "/srv/${lookup("a", "b")}"
