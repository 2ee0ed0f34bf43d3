data_dir = "/srv/${node.unique.name}/data"
