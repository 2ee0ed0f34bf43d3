fn main() {
    std::process::exit(plugctl::app::run(std::env::args_os()));
}
