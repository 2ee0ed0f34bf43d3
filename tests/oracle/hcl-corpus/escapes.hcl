data_dir = "/srv/\x6eo\155ad/\u00e9\U0001F600\t\"q\"\\"
