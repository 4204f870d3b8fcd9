//! `vantage completions SHELL` and `vantage man`: written from the command-line definitions
//! themselves (clap_complete, clap_mangen), so they never drift from the flags.

use clap::CommandFactory;

use super::{Cli, err, out_as_received};
use crate::exit;

/// The completion script of `shell` on stdout.
pub fn completions(shell: clap_complete::Shell) -> i32 {
    let mut command = Cli::command();
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "vantage", &mut script);
    write_out(&script)
}

/// The files a JSON Schema is printed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemaFile {
    /// config.toml
    Config,
    /// vantage.toml
    Workspace,
}

/// The JSON Schema of a file, for editors that check TOML (taplo, Even Better TOML).
pub fn schema(file: SchemaFile) -> i32 {
    write_out(
        match file {
            SchemaFile::Config => include_str!("../../schemas/config.schema.json"),
            SchemaFile::Workspace => include_str!("../../schemas/workspace.schema.json"),
        }
        .as_bytes(),
    )
}

/// The man page (roff) on stdout.
pub fn man() -> i32 {
    let mut page = Vec::new();
    if let Err(error) = clap_mangen::Man::new(Cli::command()).render(&mut page) {
        err(&format!("The man page could not be written: {error}."));
        return exit::FAILURE;
    }
    write_out(&page)
}

/// Our own text, written as is into a pipe or a file (and cleaned on a terminal, as every
/// output is).
fn write_out(bytes: &[u8]) -> i32 {
    out_as_received(&String::from_utf8_lossy(bytes));
    exit::OK
}
