data_dir { path = "/srv" }
