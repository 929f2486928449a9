//! Talk to a real model through a provider adapter, with the engine's `roll_dice` tool.
//!
//! ```text
//! OPENAI_API_KEY=sk-... cargo run --example providers -- --provider openai "I attack the goblin"
//! cargo run --example providers -- --provider openai --base-url http://127.0.0.1:8080/v1 \
//!     --model smollm2 "Roll a d20 for my stealth check"
//! cargo run --example providers -- --provider openai --input-price 0.15 --output-price 0.6 "..."
//! OPENROUTER_API_KEY=sk-or-... cargo run --example providers -- --provider openrouter \
//!     --model anthropic/claude-haiku-4.5 "I attack the goblin"
//! ```
//!
//! Sends the prompt with `roll_dice` available; if the model calls it, runs the call with the
//! engine's tools on a new game of the built-in adventure, sends the result back, and prints
//! the final answer, the usage and the cost (the server's, or computed from `--input-price`
//! and `--output-price` in US dollars per million tokens).
//!
//! Environment: `OPENAI_API_KEY`, `OPENAI_BASE_URL`, `OPENAI_MODEL` for `openai`;
//! `OPENROUTER_API_KEY`, `OPENROUTER_MODEL` for `openrouter` (which reports the cost itself and
//! the model that answered). With no key (and, for `openai`, no base URL) it explains how to
//! set one and exits 2; bad flags exit 2; a failed call exits 1.
//!
//! What the model or its server sends (the answer, the model's name, tool calls, errors) is
//! printed through [`terminal_safe`]: escape sequences and control characters never reach the
//! terminal.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, ValueEnum};
use dnd_engine::adventure::Adventure;
use dnd_engine::dice::game_rng;
use dnd_engine::llm::{CompletionRequest, LlmProvider, Message, Usage};
use dnd_engine::srd::Srd;
use dnd_engine::text::terminal_safe;
use dnd_engine::tools::{ToolContext, ToolLimits, TurnLog, call_tool, tool_specs};
use dnd_llm_openai::{OpenAiProvider, Pricing};
use dnd_llm_openrouter::OpenRouterProvider;
use dnd_table::provider::{openai_config, openrouter_config};
use serde_json::Value;

const NO_CREDENTIALS: &str = "no model to talk to. Set OPENAI_API_KEY for OpenAI's API, or pass \
--base-url (or set OPENAI_BASE_URL) for a local OpenAI-compatible server such as llama.cpp, \
Ollama or vLLM, e.g.\n  export OPENAI_API_KEY=sk-...\n  cargo run --example providers -- \
--provider openai --base-url http://127.0.0.1:8080/v1 --model smollm2 \"I attack\"";

const NO_OPENROUTER_KEY: &str = "no OpenRouter key. Set OPENROUTER_API_KEY (create one at \
https://openrouter.ai/settings/keys), and OPENROUTER_MODEL or --model to choose the model, e.g.\n  \
export OPENROUTER_API_KEY=sk-or-...\n  cargo run --example providers -- --provider openrouter \
--model openai/gpt-4o-mini \"I attack\"";

/// Tool rounds before giving up on a model that keeps calling tools.
const MAX_ROUNDS: usize = 3;

/// Which adapter the prompt goes through.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Adapter {
    /// OpenAI, or an OpenAI-compatible server (--base-url, OPENAI_BASE_URL).
    Openai,
    /// OpenRouter (OPENROUTER_API_KEY).
    Openrouter,
}

/// The command line.
#[derive(Debug, Parser)]
#[command(
    name = "providers",
    version,
    about = "One prompt to a real model through a provider adapter, with the roll_dice tool",
    args_override_self = true
)]
struct Options {
    /// The adapter.
    #[arg(long, value_enum)]
    provider: Adapter,
    /// The server's base URL (a local OpenAI-compatible server, or another OpenRouter URL).
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// The model (default: OPENAI_MODEL or OPENROUTER_MODEL, else the adapter's).
    #[arg(long, value_name = "M")]
    model: Option<String>,
    /// The input price in US dollars per million tokens, to compute the cost (with
    /// --output-price).
    #[arg(long, value_name = "USD_PER_MTOK", requires = "output_price")]
    input_price: Option<f64>,
    /// The output price in US dollars per million tokens.
    #[arg(long, value_name = "USD_PER_MTOK", requires = "input_price")]
    output_price: Option<f64>,
    /// The prompt (several words are joined).
    #[arg(required = true, value_name = "PROMPT")]
    words: Vec<String>,
}

impl Options {
    /// The prompt: the words joined.
    fn prompt(&self) -> String {
        self.words.join(" ")
    }

    /// The prices of the flags, when both are given.
    fn pricing(&self) -> Option<Pricing> {
        let (input, output) = (self.input_price?, self.output_price?);
        Some(Pricing {
            input_per_million: input,
            cached_input_per_million: None,
            output_per_million: output,
        })
    }
}

/// The provider the flags name, configured where every front end configures it
/// (`dnd_table::provider`), with the flags' prices over the list prices.
fn provider(options: &Options) -> Result<Box<dyn LlmProvider>, String> {
    let (model, base_url) = (options.model.as_deref(), options.base_url.as_deref());
    let built = match options.provider {
        Adapter::Openai => {
            let mut config =
                openai_config(model, base_url).map_err(|_| NO_CREDENTIALS.to_owned())?;
            config.pricing = options.pricing().or(config.pricing);
            eprintln!("model {} at {}", config.model(), config.base_url);
            OpenAiProvider::new(config).map(|p| Box::new(p) as Box<dyn LlmProvider>)
        }
        Adapter::Openrouter => {
            let mut config = openrouter_config(model, base_url, "dnd-gm providers example")
                .map_err(|_| NO_OPENROUTER_KEY.to_owned())?;
            config.pricing = options.pricing();
            eprintln!("model {} at {}", config.model(), config.base_url);
            OpenRouterProvider::new(config).map(|p| Box::new(p) as Box<dyn LlmProvider>)
        }
    };
    built.map_err(|e| format!("error: {e}"))
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    // `--help` and `--version` exit 0; bad flags exit 2 with clap's message.
    let options = Options::parse();
    let provider = match provider(&options) {
        Ok(provider) => provider,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let (mut out, mut log) = (std::io::stdout().lock(), std::io::stderr().lock());
    match run(&*provider, &options.prompt(), &mut out, &mut log).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // The error may quote the server.
            eprintln!("error: {}", terminal_safe(&message));
            ExitCode::from(1)
        }
    }
}

/// Sends `prompt` with `roll_dice` available and runs the model's calls: the answer and the
/// usage go to `out`, each tool call to `log`, all of it safe for a terminal.
async fn run(
    provider: &dyn LlmProvider,
    prompt: &str,
    out: &mut dyn Write,
    log: &mut dyn Write,
) -> Result<(), String> {
    let mut state = Adventure::built_in()
        .new_game(&["kraven"])
        .map_err(|e| e.to_string())?;
    let mut rng = dnd_engine::dice::TurnDice::Game(game_rng());
    let limits = ToolLimits::default();
    let mut turn_log = TurnLog::default();
    let tools: Vec<_> = tool_specs()
        .into_iter()
        .filter(|tool| tool.name == "roll_dice")
        .collect();
    let mut request = CompletionRequest::new(vec![
        Message::system(
            "You are the game master of a Dungeons & Dragons game. Never invent dice results: \
             call roll_dice for every roll, then narrate the result in two or three sentences.",
        ),
        Message::user(prompt),
    ])
    .with_tools(tools)
    .with_max_tokens(400);
    let mut usage = Usage::default();
    for _ in 0..MAX_ROUNDS {
        let response = provider
            .complete(&request)
            .await
            .map_err(|e| e.to_string())?;
        usage += response.usage;
        let calls = response.tool_calls().to_vec();
        if calls.is_empty() {
            let text = response.text().unwrap_or("(no text)");
            writeln!(out, "{}", terminal_safe(text).trim()).map_err(|e| e.to_string())?;
            return print_usage(out, &usage, response.model.as_deref());
        }
        request.messages.push(response.message);
        for call in calls {
            let arguments = match &call.arguments {
                Value::String(text) => text.clone(),
                other => other.to_string(),
            };
            let mut ctx = ToolContext {
                state: &mut state,
                srd: Srd::bundled(),
                rng: &mut rng,
                limits: &limits,
                log: &mut turn_log,
            };
            let result = call_tool(&call.name, &arguments, &mut ctx);
            writeln!(
                log,
                "tool {}({}) -> {}",
                terminal_safe(&call.name),
                terminal_safe(&arguments),
                terminal_safe(&result.to_text())
            )
            .map_err(|e| e.to_string())?;
            request
                .messages
                .push(Message::tool_result(&call.id, result.to_text()));
        }
    }
    print_usage(out, &usage, None)?;
    Err(format!(
        "the model was still calling tools after {MAX_ROUNDS} rounds"
    ))
}

/// The usage, the cost and the model that answered (named by the server, so made safe).
fn print_usage(out: &mut dyn Write, usage: &Usage, model: Option<&str>) -> Result<(), String> {
    let mut text = String::from("\n");
    if let Some(model) = model {
        text += &format!("model: {}\n", terminal_safe(model));
    }
    text += &format!(
        "usage: {} prompt tokens ({} cached), {} completion tokens ({} reasoning)\n",
        usage.prompt_tokens, usage.cached_tokens, usage.completion_tokens, usage.reasoning_tokens
    );
    text += &match usage.cost {
        Some(cost) => format!("cost: ${cost:.6}\n"),
        None => "cost: unknown (the server reports none; pass --input-price and --output-price)\n"
            .to_owned(),
    };
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn parse_args(list: &[&str]) -> Result<Options, String> {
        Options::try_parse_from(std::iter::once("providers").chain(list.iter().copied()))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn flags_and_prompt() {
        use clap::CommandFactory;
        Options::command().debug_assert();
        let options = parse_args(&[
            "--provider=openai",
            "--model",
            "m",
            "--input-price",
            "1",
            "--output-price=2",
            "I",
            "attack",
        ])
        .unwrap();
        assert_eq!(options.provider, Adapter::Openai);
        assert_eq!(options.model.as_deref(), Some("m"));
        assert_eq!(options.prompt(), "I attack");
        assert_eq!(options.pricing().map(|p| p.output_per_million), Some(2.0));
        assert!(parse_args(&["I attack"]).is_err());
        assert!(parse_args(&["--provider", "openai"]).is_err());
        assert!(parse_args(&["--provider", "openai", "--bogus", "x"]).is_err());
        assert!(parse_args(&["--provider", "claude", "hi"]).is_err());
        assert!(parse_args(&["--provider", "openai", "--input-price", "1", "hi"]).is_err());
    }

    /// Whether `text` holds a control character other than a newline or a tab.
    fn has_controls(text: &str) -> bool {
        text.chars()
            .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    }

    #[tokio::test(flavor = "current_thread")]
    async fn escape_sequences_from_the_model_are_never_printed() {
        use dnd_engine::llm::{CompletionResponse, ScriptedProvider, ToolCall};
        const ESC: &str = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{9b}31m";
        let calls = vec![
            ToolCall::new(
                "c1",
                "roll_dice",
                json!({"expression": "1d20", "reason": format!("stealth{ESC}")}),
            ),
            ToolCall::new("c2", format!("roll_dice{ESC}"), json!({})),
        ];
        let mut answer = CompletionResponse::from_text(format!("{ESC}You slip past.{ESC}"));
        answer.model = Some(format!("m{ESC}"));
        let provider = ScriptedProvider::new(vec![
            Ok(CompletionResponse {
                message: Message::assistant_tool_calls(calls),
                ..CompletionResponse::from_text("")
            }),
            Ok(answer),
        ]);
        let (mut out, mut log) = (Vec::new(), Vec::new());
        run(&provider, "I sneak", &mut out, &mut log).await.unwrap();
        let (out, log) = (
            String::from_utf8(out).unwrap(),
            String::from_utf8(log).unwrap(),
        );
        assert!(!has_controls(&out), "{out:?}");
        assert!(!has_controls(&log), "{log:?}");
        // What was around the escapes is still there.
        assert!(out.starts_with("You slip past.\n"), "{out:?}");
        assert!(out.contains("model: m\n"), "{out:?}");
        assert!(log.contains("stealth"), "{log:?}");
        assert_eq!(log.lines().count(), 2, "{log:?}");
    }

    #[test]
    fn openrouter_sets_its_url_headers_and_routing() {
        let options = parse_args(&["--provider", "openrouter", "--model", "m", "hi"]).unwrap();
        // The key comes from the environment; without it the example explains and exits 2.
        if std::env::var("OPENROUTER_API_KEY").is_err() {
            assert_eq!(provider(&options).err().as_deref(), Some(NO_OPENROUTER_KEY));
            return;
        }
        let config = openrouter_config(Some("m"), None, "test").unwrap();
        assert_eq!(config.base_url, dnd_llm_openrouter::OPENROUTER_BASE_URL);
        assert_eq!(config.model(), "m");
        // A request with a tool asks for providers that support it.
        let request = CompletionRequest::new(vec![Message::user("hi")]).with_tools(tool_specs());
        let body = serde_json::to_value(dnd_llm_openrouter::build_body(&request, &config, None));
        assert_eq!(body.unwrap()["provider"]["require_parameters"], json!(true));
    }
}
