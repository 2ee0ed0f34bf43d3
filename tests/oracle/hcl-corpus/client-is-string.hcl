client = "yes"
