data_dir = "/srv"
vault {
  enabled = true
  token = "hvs.CAESIJ-secret-token"
}
consul {
  token = "11111111-2222-3333-4444-555555555555"
}
acl { enabled = true }
