consul {
  token = "s3cr3t-7f3a9c
}
