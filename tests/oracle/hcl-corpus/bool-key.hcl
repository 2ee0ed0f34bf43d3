true = 1
