data_dir = ["/srv"]
