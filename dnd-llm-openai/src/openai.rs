//! [`OpenAi`]: the dialect of OpenAI's own API and of servers that copy it (llama.cpp, vLLM,
//! Ollama, LM Studio), and [`OpenAiConfig`], the configuration built on it.

use dnd_engine::llm::LlmError;

use crate::build::TokenLimitField;
use crate::config::ChatConfig;
use crate::dialect::Dialect;
use crate::http::ApiKey;
#[cfg(feature = "speech")]
use crate::speech::SpeechOptions;

/// OpenAI's API.
pub const OPENAI_BASE_URL: &str = "https://api.openai.com/v1";

/// The model [`OpenAiConfig::from_env`] uses when `OPENAI_MODEL` is not set.
pub const DEFAULT_MODEL: &str = "gpt-4o-mini";

/// The configuration of an [`OpenAiProvider`](crate::OpenAiProvider): the shared connection,
/// with OpenAI's organisation, project and speech settings in
/// [`dialect`](ChatConfig::dialect).
pub type OpenAiConfig = ChatConfig<OpenAi>;

/// What OpenAI adds to the shared provider: the `OpenAI-Organization` and `OpenAI-Project`
/// headers, and the speech endpoints' settings. Errors, the body and the answer are the
/// defaults of [`Dialect`], which are OpenAI's; the context window is read from llama.cpp's
/// `/props` when [`ChatConfig::read_context_window`] is on (it is for
/// [`local`](OpenAiConfig::local) servers).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OpenAi {
    /// `OpenAI-Organization`.
    pub organization: Option<String>,
    /// `OpenAI-Project`.
    pub project: Option<String>,
    /// The speech endpoints' settings.
    #[cfg(feature = "speech")]
    pub speech: SpeechOptions,
}

impl Dialect for OpenAi {
    /// OpenAI's API with this model, no key, and every other setting at its default.
    fn config(model: String) -> ChatConfig<Self> {
        ChatConfig::with_dialect("openai", OPENAI_BASE_URL, model, OpenAi::default())
    }

    /// Reads `OPENAI_API_KEY`, `OPENAI_BASE_URL` (default OpenAI's), `OPENAI_MODEL` (default
    /// [`DEFAULT_MODEL`]), and `OPENAI_ORG_ID` / `OPENAI_PROJECT_ID` when set. A base URL other
    /// than OpenAI's gets the legacy `max_tokens` field, which compatible servers know.
    ///
    /// # Errors
    ///
    /// [`LlmError::Auth`] when neither a key nor a base URL is set (there is nothing to talk
    /// to), saying which variables to set.
    fn config_from_env() -> Result<ChatConfig<Self>, LlmError> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let key = var("OPENAI_API_KEY");
        let base_url = var("OPENAI_BASE_URL");
        if key.is_none() && base_url.is_none() {
            return Err(LlmError::auth(
                "no OpenAI credentials: set OPENAI_API_KEY, or OPENAI_BASE_URL for a local \
                 OpenAI-compatible server (and OPENAI_MODEL to choose the model)",
            ));
        }
        let mut config =
            OpenAiConfig::new(var("OPENAI_MODEL").unwrap_or_else(|| DEFAULT_MODEL.to_owned()));
        if let Some(base_url) = base_url {
            if !is_openai(&base_url) {
                config.request.token_limit = TokenLimitField::MaxTokens;
            }
            config.base_url = base_url;
        }
        config.api_key = key.map(ApiKey::new);
        config.dialect.organization = var("OPENAI_ORG_ID");
        config.dialect.project = var("OPENAI_PROJECT_ID");
        Ok(config)
    }

    fn headers(&self) -> Vec<(&str, &str, bool)> {
        let named = [
            ("OpenAI-Organization", self.organization.as_deref()),
            ("OpenAI-Project", self.project.as_deref()),
        ];
        // Marked sensitive, as extra headers are: they identify the account.
        named
            .into_iter()
            .filter_map(|(name, value)| Some((name, value?, true)))
            .collect()
    }
}

impl ChatConfig<OpenAi> {
    /// A local or self-hosted OpenAI-compatible server (llama.cpp, vLLM, Ollama, LM Studio):
    /// no key, the legacy `max_tokens`, plain tool schemas (no `strict`), `""` as the content
    /// of assistant messages that only call tools, and no JSON-Schema output until
    /// [`with_capabilities`](ChatConfig::with_capabilities) says otherwise.
    pub fn local(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        let mut config = OpenAiConfig::new(model).with_base_url(base_url);
        config.request.token_limit = TokenLimitField::MaxTokens;
        config.request.strict_tools = false;
        config.request.empty_tool_call_content = true;
        config.capabilities.json_schema = false;
        config.read_context_window = true;
        config.name = "openai-compatible".to_owned();
        config
    }

    /// Sets the `OpenAI-Organization` header.
    pub fn with_organization(mut self, organization: impl Into<String>) -> Self {
        self.dialect.organization = Some(organization.into());
        self
    }

    /// Sets the `OpenAI-Project` header.
    pub fn with_project(mut self, project: impl Into<String>) -> Self {
        self.dialect.project = Some(project.into());
        self
    }

    /// Sets the speech endpoints' settings.
    #[cfg(feature = "speech")]
    pub fn with_speech(mut self, speech: SpeechOptions) -> Self {
        self.dialect.speech = speech;
        self
    }
}

fn is_openai(base_url: &str) -> bool {
    base_url.contains("://api.openai.com")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn organisation_and_project_are_sensitive_headers_in_order() {
        let dialect = OpenAiConfig::new("m")
            .with_project("proj")
            .with_organization("org")
            .dialect;
        assert_eq!(
            dialect.headers(),
            [
                ("OpenAI-Organization", "org", true),
                ("OpenAI-Project", "proj", true)
            ]
        );
        assert!(OpenAi::default().headers().is_empty());
        assert!(is_openai("https://api.openai.com/v1") && !is_openai("http://127.0.0.1/v1"));
    }
}
