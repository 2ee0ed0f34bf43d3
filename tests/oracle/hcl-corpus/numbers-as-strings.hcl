data_dir = 1234
client {
  node_pool = 0x1F
  state_dir = 1.5e3
  common_plugin_dir = true
}
