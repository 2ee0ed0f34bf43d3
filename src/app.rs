//! The command-line front end: parse, resolve settings, dispatch, and turn
//! an error into its message and exit code.

use std::ffi::OsString;

use clap::Parser;

use crate::cli::Cli;
use crate::exit;

pub fn run(args: impl IntoIterator<Item = OsString>) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::SUCCESS
            };
            let _ = e.print();
            return code;
        }
    };
    let _ = cli;
    exit::SUCCESS
}
