client = ["a"]
