//! One function per subcommand.
