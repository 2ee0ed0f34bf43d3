client = {
  host_volumes_dir = "/srv/vols"
}
