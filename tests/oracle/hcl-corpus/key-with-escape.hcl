"data\x5fdir" = "/srv/escaped-key"
