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

use dnd_engine::adventure::Adventure;
use dnd_engine::dice::game_rng;
use dnd_engine::llm::{CompletionRequest, LlmProvider, Message, Usage};
use dnd_engine::srd::Srd;
use dnd_engine::text::terminal_safe;
use dnd_engine::tools::{ToolContext, ToolLimits, TurnLog, call_tool, tool_specs};
use dnd_llm_openai::{DEFAULT_MODEL, OpenAiConfig, OpenAiProvider, Pricing, TokenLimitField};
use serde_json::{Value, json};

const USAGE: &str = "usage: providers --provider openai|openrouter [--base-url URL] [--model M] \
                     [--input-price USD_PER_MTOK --output-price USD_PER_MTOK] PROMPT";

const NO_CREDENTIALS: &str = "no model to talk to. Set OPENAI_API_KEY for OpenAI's API, or pass \
--base-url (or set OPENAI_BASE_URL) for a local OpenAI-compatible server such as llama.cpp, \
Ollama or vLLM, e.g.\n  export OPENAI_API_KEY=sk-...\n  cargo run --example providers -- \
--provider openai --base-url http://127.0.0.1:8080/v1 --model smollm2 \"I attack\"";

const NO_OPENROUTER_KEY: &str = "no OpenRouter key. Set OPENROUTER_API_KEY (create one at \
https://openrouter.ai/settings/keys), and OPENROUTER_MODEL or --model to choose the model, e.g.\n  \
export OPENROUTER_API_KEY=sk-or-...\n  cargo run --example providers -- --provider openrouter \
--model openai/gpt-4o-mini \"I attack\"";

/// OpenRouter's API and the model used when neither `--model` nor `OPENROUTER_MODEL` says.
const OPENROUTER_BASE_URL: &str = "https://openrouter.ai/api/v1";
const OPENROUTER_DEFAULT_MODEL: &str = "openai/gpt-4o-mini";

/// Tool rounds before giving up on a model that keeps calling tools.
const MAX_ROUNDS: usize = 3;

struct Options {
    provider: String,
    base_url: Option<String>,
    model: Option<String>,
    input_price: Option<f64>,
    output_price: Option<f64>,
    prompt: String,
}

fn parse_args(mut args: impl Iterator<Item = String>) -> Result<Options, String> {
    let mut options = Options {
        provider: String::new(),
        base_url: None,
        model: None,
        input_price: None,
        output_price: None,
        prompt: String::new(),
    };
    let mut words = Vec::new();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--provider" => options.provider = value("--provider")?,
            "--base-url" => options.base_url = Some(value("--base-url")?),
            "--model" => options.model = Some(value("--model")?),
            "--input-price" | "--output-price" => {
                let price: f64 = value(&arg)?
                    .parse()
                    .map_err(|_| format!("{arg} needs a number"))?;
                if arg == "--input-price" {
                    options.input_price = Some(price);
                } else {
                    options.output_price = Some(price);
                }
            }
            "-h" | "--help" => return Err(String::new()),
            flag if flag.starts_with("--") => return Err(format!("unknown flag {flag}")),
            _ => words.push(arg),
        }
    }
    if options.provider.is_empty() {
        return Err("--provider is required".into());
    }
    options.prompt = words.join(" ");
    if options.prompt.trim().is_empty() {
        return Err("a prompt is required".into());
    }
    Ok(options)
}

fn config(options: &Options) -> Result<OpenAiConfig, String> {
    let mut config = match &options.base_url {
        Some(base_url) => {
            let model = options
                .model
                .clone()
                .or_else(|| std::env::var("OPENAI_MODEL").ok())
                .unwrap_or_else(|| DEFAULT_MODEL.to_owned());
            let mut config = OpenAiConfig::local(base_url, model);
            if let Ok(key) = std::env::var("OPENAI_API_KEY")
                && !key.trim().is_empty()
            {
                config = config.with_api_key(key);
            }
            config
        }
        None => OpenAiConfig::from_env().map_err(|_| NO_CREDENTIALS.to_owned())?,
    };
    if let Some(model) = &options.model {
        config = config.with_model(model);
    }
    if let (Some(input), Some(output)) = (options.input_price, options.output_price) {
        config = config.with_pricing(Pricing {
            input_per_million: input,
            cached_input_per_million: None,
            output_per_million: output,
        });
    }
    Ok(config)
}

/// OpenRouter through the OpenAI adapter: its base URL and key, the attribution headers, and
/// `provider.require_parameters` (this example always sends a tool, and a provider that cannot
/// call tools would otherwise be allowed to ignore it). The `dnd-llm-openrouter` crate does
/// the same and more (fallback models, routing, cache breakpoints for Anthropic models, its
/// error codes); this example keeps to the dependencies it has.
fn openrouter_config(options: &Options) -> Result<OpenAiConfig, String> {
    let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
    let key = var("OPENROUTER_API_KEY").ok_or_else(|| NO_OPENROUTER_KEY.to_owned())?;
    let model = options
        .model
        .clone()
        .or_else(|| var("OPENROUTER_MODEL"))
        .unwrap_or_else(|| OPENROUTER_DEFAULT_MODEL.to_owned());
    let base_url = options
        .base_url
        .clone()
        .unwrap_or_else(|| OPENROUTER_BASE_URL.to_owned());
    let mut config = OpenAiConfig::new(model)
        .with_base_url(base_url)
        .with_api_key(key)
        .with_token_limit_field(TokenLimitField::MaxTokens)
        .with_header("HTTP-Referer", env!("CARGO_PKG_REPOSITORY"))
        .with_header("X-OpenRouter-Title", "dnd-gm providers example")
        .with_header("X-Title", "dnd-gm providers example")
        .with_body_field("provider", json!({"require_parameters": true}));
    config.name = "openrouter".to_owned();
    if let (Some(input), Some(output)) = (options.input_price, options.output_price) {
        config = config.with_pricing(Pricing {
            input_per_million: input,
            cached_input_per_million: None,
            output_per_million: output,
        });
    }
    Ok(config)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let options = match parse_args(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("error: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let config = match options.provider.as_str() {
        "openai" => config(&options),
        "openrouter" => openrouter_config(&options),
        other => {
            eprintln!("error: unknown provider {other:?}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let config = match config {
        Ok(config) => config,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    eprintln!("model {} at {}", config.model(), config.base_url);
    let provider = match OpenAiProvider::new(config) {
        Ok(provider) => provider,
        Err(error) => {
            eprintln!("error: {error}");
            return ExitCode::from(2);
        }
    };
    let (mut out, mut log) = (std::io::stdout().lock(), std::io::stderr().lock());
    match run(&provider, &options.prompt, &mut out, &mut log).await {
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
    use super::*;

    fn args(list: &[&str]) -> impl Iterator<Item = String> {
        list.iter()
            .map(|s| (*s).to_owned())
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn flags_and_prompt() {
        let options = parse_args(args(&[
            "--provider",
            "openai",
            "--model",
            "m",
            "I",
            "attack",
        ]))
        .unwrap();
        assert_eq!(options.provider, "openai");
        assert_eq!(options.model.as_deref(), Some("m"));
        assert_eq!(options.prompt, "I attack");
        assert!(parse_args(args(&["I attack"])).is_err());
        assert!(parse_args(args(&["--provider", "openai"])).is_err());
        assert!(parse_args(args(&["--provider", "openai", "--bogus", "x"])).is_err());
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
        let options =
            parse_args(args(&["--provider", "openrouter", "--model", "m", "hi"])).unwrap();
        // The key comes from the environment; without it the example explains and exits 2.
        if std::env::var("OPENROUTER_API_KEY").is_err() {
            assert_eq!(openrouter_config(&options).unwrap_err(), NO_OPENROUTER_KEY);
            return;
        }
        let config = openrouter_config(&options).unwrap();
        assert_eq!(config.base_url, OPENROUTER_BASE_URL);
        assert_eq!(config.model(), "m");
        assert_eq!(
            config.request.extra_body["provider"],
            json!({"require_parameters": true})
        );
    }
}
