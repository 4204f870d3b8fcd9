//! The `vantage` binary: parse the command line, then run the app, a subcommand or the
//! simulator.

use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use vantage::api::Client;
use vantage::cli::{self, Cli, Command};
use vantage::config::{Config, Overrides};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("Could not start the async runtime: {e}.");
            return ExitCode::from(1);
        }
    };
    let code = runtime.block_on(dispatch(cli));
    ExitCode::from(u8::try_from(code).unwrap_or(1))
}

async fn dispatch(cli: Cli) -> i32 {
    if let Some(Command::Sim(args)) = cli.command {
        return cli::run_sim(args).await;
    }
    let overrides = Overrides {
        render_url: cli.render_url,
        search_url: cli.search_url,
    };
    let mut config = match Config::load(&overrides) {
        Ok(config) => config,
        Err(e) => {
            eprintln!("{e}");
            return 2;
        }
    };
    let _log_guard = init_logging(&config.data_dir);
    let simulator = if cli.demo {
        match vantage::sim::demo::start(&config.data_dir).await {
            Ok(simulator) => {
                config.use_simulator(&simulator.url(), simulator.token());
                Some(simulator)
            }
            Err(e) => {
                eprintln!("The demo simulator could not start: {e}.");
                return 5;
            }
        }
    } else {
        None
    };
    let client = match Client::new(config.client_settings()) {
        Ok(client) => client,
        Err(e) => {
            eprintln!("{e}");
            return e.exit_code();
        }
    };
    let code = match cli.command {
        Some(Command::Proxy(args)) => cli::run_proxy(args, &config, simulator.as_ref()).await,
        Some(command) => cli::run(&config, &client, command).await,
        None => vantage::tui::run(config, client, simulator.as_ref()).await,
    };
    if let Some(simulator) = simulator {
        simulator.shutdown().await;
    }
    code
}

/// Logs go to a file in the data dir, never to the terminal. No file, no logs: the app runs.
fn init_logging(data_dir: &Path) -> Option<tracing_appender::non_blocking::WorkerGuard> {
    std::fs::create_dir_all(data_dir).ok()?;
    let appender = tracing_appender::rolling::never(data_dir, "vantage.log");
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter = tracing_subscriber::EnvFilter::try_from_env("VANTAGE_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_writer(writer)
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init()
        .ok()?;
    Some(guard)
}
