# hash
// slashes
/* block
   comment */ data_dir = "/srv" /* after */ // end
