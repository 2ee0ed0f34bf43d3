client {
  ſtate_dir = "/srv/long-s"
}
