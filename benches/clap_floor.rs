//! The startup floor: a Rust binary that parses its command line with clap
//! (derive, as plugctl does) and does nothing else. `clap_floor --version`
//! and `clap_floor plugin list` are what `plugctl --version` and `plugctl
//! plugin list` are compared with.

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "clap_floor", version)]
struct Cli {
    #[arg(long, global = true)]
    json: bool,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Plugins
    Plugin {
        #[command(subcommand)]
        command: PluginCommand,
    },
}

#[derive(Subcommand)]
enum PluginCommand {
    /// List them
    List {
        #[arg(long = "type")]
        family: Option<String>,
    },
}

fn main() {
    let cli = Cli::parse();
    if let Some(Command::Plugin {
        command: PluginCommand::List { family },
    }) = cli.command
    {
        println!("TYPE  NAME  VERSION{}", family.map(|_| "").unwrap_or(""));
    }
}
