DATA_DIR = "/srv/upper"
Client {
  Node_Pool = "mixed"
}
