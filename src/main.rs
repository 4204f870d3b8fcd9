//! The `vantage` binary: parse the command line, then run the app, a subcommand or the
//! simulator.

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use vantage::api::Client;
use vantage::cli::{self, Cli, Command};
use vantage::config::{Config, Overrides};
use vantage::exit;

fn main() -> ExitCode {
    // A shell asking for completions is answered before anything else, and nothing more.
    cli::shell::answer_the_shell();
    let cli = Cli::parse();
    // Whatever is left on the blocking pool when the app quits is not waited for.
    let code = match vantage::runtime::block_on(dispatch(cli)) {
        Ok(code) => cli::with_output_checked(code),
        Err(e) => {
            cli::err(&format!("Could not start the async runtime: {e}."));
            return ExitCode::from(exit::FAILURE as u8);
        }
    };
    ExitCode::from(u8::try_from(code).unwrap_or(exit::FAILURE as u8))
}

async fn dispatch(cli: Cli) -> i32 {
    match cli.command {
        Some(Command::Sim(args)) => return cli::run_sim(args).await,
        // Written from the flags alone: no config, token or store.
        Some(Command::Completions { shell }) => return cli::shell::completions(shell),
        Some(Command::Man { dir }) => return cli::shell::man(dir.as_deref()),
        Some(Command::Schema { file }) => return cli::shell::schema(file),
        _ => {}
    }
    // The flags after the subcommand, else those before it.
    let before = cli::ServiceFlags {
        demo: cli::DemoFlag { demo: cli.demo },
        render_url: cli.render_url,
        search_url: cli.search_url,
    };
    let flags = match &cli.command {
        Some(command) => command.service_flags().or(before),
        None => before,
    };
    let demo = flags.demo.demo;
    let overrides = Overrides {
        render_url: flags.render_url,
        search_url: flags.search_url,
        theme: cli.theme,
    };
    let mut config = match Config::load(&overrides) {
        Ok(config) => config,
        Err(e) => {
            cli::err(&e.to_string());
            return exit::INVALID_INPUT;
        }
    };
    vantage::analysis::workspace::trust::trust_listed(config.safe_workspaces.clone());
    vantage::jobs::set_longest_wait_hours(config.longest_job_wait_hours);
    // The demo's history, jobs and runs are its own, never the live store's.
    if demo {
        config.keep_demo_apart();
    }
    // The keys are the config folder's: nothing else is needed.
    if let Some(Command::Keys { template }) = cli.command {
        return cli::shell::keys(&config, template);
    }
    let (_log_guard, log_warning) = init_logging(&config.data_dir);
    // Said once: on stderr for a subcommand; in the app, as its first flash.
    if cli.command.is_some()
        && let Some(warning) = &log_warning
    {
        cli::err(warning);
    }
    let simulator = if demo {
        match vantage::sim::demo::start(&config.data_dir, config.prices).await {
            Ok(simulator) => {
                config.use_simulator(&simulator.url(), simulator.token());
                Some(simulator)
            }
            Err(e) => {
                cli::err(&format!("The demo simulator could not start: {e}."));
                return exit::NO_ANSWER;
            }
        }
    } else {
        None
    };
    let client = match Client::new(config.client_settings()) {
        Ok(client) => client,
        Err(e) => {
            cli::err(&e.to_string());
            return e.exit_code();
        }
    };
    let code = match cli.command {
        Some(Command::Proxy(args)) => cli::run_proxy(args, &config, simulator.as_ref()).await,
        Some(command) => cli::run(&config, &client, command).await,
        None => {
            vantage::tui::run(
                config,
                client,
                simulator.as_ref(),
                log_warning,
                cli.workspace,
            )
            .await
        }
    };
    // The simulator's connections are given a moment to close, not more: quitting is prompt.
    if let Some(simulator) = simulator {
        let _ = tokio::time::timeout(SIMULATOR_GRACE, simulator.shutdown()).await;
    }
    code
}

/// How long the embedded simulator may take to stop once the app or the command is done.
const SIMULATOR_GRACE: std::time::Duration = std::time::Duration::from_millis(300);

/// The log's file name inside the data dir.
const LOG_FILE: &str = "vantage.log";
/// Log lines waiting to be written, at most; more are dropped (the writer is far faster).
const LOG_QUEUE_LINES: usize = 1_024;

/// Logs go to a file in the data dir, never to the terminal. No file, no logs: the app runs,
/// and the returned sentence says why there is no log (to be shown once).
fn init_logging(
    data_dir: &Path,
) -> (
    Option<tracing_appender::non_blocking::WorkerGuard>,
    Option<String>,
) {
    let file = match open_log_file(data_dir) {
        Ok(file) => file,
        Err(warning) => return (None, Some(warning)),
    };
    // The queue of lines not yet written is allocated, and touched, whole at start: the
    // default of 128,000 lines is 4 MB of memory; the app logs a few lines a minute.
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .finish(file);
    let filter = tracing_subscriber::EnvFilter::try_from_env("VANTAGE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    // Fails only if a subscriber is already set, which then receives the logs.
    let _ = tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
    (Some(guard), None)
}

/// Opens the log for appending. Opened here rather than by `tracing_appender::rolling`,
/// which panics when the file cannot be opened.
fn open_log_file(data_dir: &Path) -> Result<std::fs::File, String> {
    let what_to_do = "Make it writable, or set VANTAGE_DATA_DIR to another folder.";
    if let Err(e) = std::fs::create_dir_all(data_dir) {
        return Err(format!(
            "Running without a log: the data folder {} could not be made ({e}). {what_to_do}",
            data_dir.display()
        ));
    }
    let path = data_dir.join(LOG_FILE);
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .map_err(|e| {
            format!(
                "Running without a log: {} could not be opened ({e}). {what_to_do}",
                path.display()
            )
        })
}
