//! One game on the screen: the store, the game master, the campaign being played, and what
//! this session has seen (its rolls, its tokens). Playing a turn, starting, saving and loading
//! campaigns live here; `commands.rs` maps what the player types onto these methods.

use std::path::PathBuf;
use std::sync::Arc;

use dnd_engine::adventure::Adventure;
use dnd_engine::gm::{GameMaster, GmError, PlayerInput, SuggestedAction, TurnEvent};
use dnd_engine::llm::Usage;
use dnd_engine::state::GameState;
use dnd_engine::store::{CampaignId, CampaignInfo, GameStore, RollRecord, StoreError};
use dnd_engine::text::terminal_safe;
use futures::StreamExt;

use crate::panel::{print_panel, print_suggestions};
use crate::screen::{Screen, Tone, Wrapper};
use crate::views;
use dnd_table::storage::{self, Copied};
use dnd_table::story::{list, one_line, story_lines};

/// How many story events the recap shows.
const RECAP_EVENTS: usize = 5;

/// A game in progress.
pub struct Game {
    /// Where it is shown.
    pub screen: Screen,
    store: Arc<dyn GameStore>,
    gm: GameMaster,
    /// The save file (the last campaign played is remembered beside it).
    db: PathBuf,
    /// The adventure new games start from.
    adventure: Adventure,
    /// The pregenerated character new games use.
    character: String,
    /// Whether the game master is the offline one (no cost).
    offline: bool,
    /// Whether Ctrl-C cancels a turn (a person at a terminal).
    interactive: bool,
    /// The campaign being played, and its name.
    campaign: CampaignId,
    name: String,
    /// The last turn's suggestions: typing `2` takes the second.
    suggestions: Vec<SuggestedAction>,
    /// This session's rolls, tokens and turns.
    rolls: Vec<RollRecord>,
    usage: Usage,
    /// The last turn's tokens and model calls, for `/cost`.
    last_turn: Option<(Usage, usize)>,
    turns: u32,
    /// This session's model answers cut by the output caps.
    cut: usize,
    /// The last input that failed or was cancelled, for `/retry`.
    retry: Option<String>,
    /// What the last turn failed to save, and why, while no turn has been saved since: `/quit`
    /// says so instead of "Saved".
    unsaved: Option<String>,
}

/// The parts a [`Game`] is made of.
pub struct Setup {
    /// The screen.
    pub screen: Screen,
    /// The store.
    pub store: Arc<dyn GameStore>,
    /// The game master over that store.
    pub gm: GameMaster,
    /// The save file's path.
    pub db: PathBuf,
    /// The adventure.
    pub adventure: Adventure,
    /// The character new games use.
    pub character: String,
    /// Whether the game master is offline.
    pub offline: bool,
    /// Whether Ctrl-C cancels a turn.
    pub interactive: bool,
}

impl Game {
    /// Resumes the campaign played last, or starts a new one when there is none or when it
    /// does not fit the `--character` or `--adventure` asked for (`insist`).
    pub async fn start(setup: Setup, insist: bool) -> Result<Game, String> {
        let mut game = Game {
            screen: setup.screen,
            store: setup.store,
            gm: setup.gm,
            db: setup.db,
            adventure: setup.adventure,
            character: setup.character,
            offline: setup.offline,
            interactive: setup.interactive,
            campaign: CampaignId(String::new()),
            name: String::new(),
            suggestions: Vec::new(),
            rolls: Vec::new(),
            usage: Usage::default(),
            last_turn: None,
            turns: 0,
            cut: 0,
            retry: None,
            unsaved: None,
        };
        let campaigns = game.campaigns().await?;
        if let Some(last) = storage::last_played(&game.db, &campaigns) {
            let state = game.store.load(&last.id).await.map_err(|e| e.to_string())?;
            let fits =
                state.title == game.adventure.title && state.character(&game.character).is_some();
            if fits || !insist {
                game.switch_to(last, &state).await?;
                return Ok(game);
            }
        }
        game.new_game().await?;
        Ok(game)
    }

    /// The prompt: the character's name and hit points.
    pub async fn prompt(&self) -> String {
        match self.store.load(&self.campaign).await {
            Ok(state) => match state.characters.first() {
                Some(c) => format!("{} (HP {}/{})> ", c.name, c.hp.current, c.hp.max),
                None => "> ".to_owned(),
            },
            Err(_) => "> ".to_owned(),
        }
    }

    /// Plays one turn: the narration as it streams in (a spinner until it starts), then the
    /// mechanics panel and the suggestions. Ctrl-C (on a terminal) cancels it; an error is one
    /// line, and nothing is written in either case.
    pub async fn play(&mut self, text: &str) {
        let screen = self.screen;
        let before = match self.store.load(&self.campaign).await {
            Ok(state) => state,
            Err(e) => {
                screen.say(
                    Tone::Bad,
                    &format!("error: cannot read the game: {}", one_line(&e.to_string())),
                );
                return;
            }
        };
        let speaker = before
            .characters
            .first()
            .map_or_else(|| "player".to_owned(), |c| c.name.clone());
        let interactive = self.interactive;
        let interrupt = async move {
            // Without a handler (not a terminal, or it could not be installed), never.
            if !interactive || tokio::signal::ctrl_c().await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        tokio::pin!(interrupt);
        // A suggestion picked (by number, or by its very words) is sent as a pick: the engine
        // rolls its mechanic, as it offered it, before the game master narrates.
        let input = match self
            .suggestions
            .iter()
            .find(|a| a.mechanic.is_some() && terminal_safe(&a.description) == text)
        {
            Some(action) => PlayerInput::choose(speaker, action),
            None => PlayerInput::new(speaker, text),
        };
        let mut spinner = screen.spinner("The game master is thinking… (Ctrl-C cancels)");
        let mut wrapper = Wrapper::new(screen.width());
        let mut streamed = false;
        let result = {
            let mut events = self.gm.turn_stream(&self.campaign, input);
            loop {
                tokio::select! {
                    () = &mut interrupt => break None,
                    event = events.next() => match event {
                        Some(TurnEvent::Text(piece)) => {
                            spinner.stop();
                            // Made safe piece by piece: a sequence split between two pieces
                            // has lost its ESC, so its tail prints as inert characters.
                            let piece = terminal_safe(&piece);
                            streamed |= !piece.trim().is_empty();
                            screen.print(&wrapper.push(&piece));
                        }
                        Some(TurnEvent::Done(result)) => break Some(*result),
                        // Tool calls are shown in the panel once the turn is done.
                        Some(_) => {}
                        None => break Some(Err(GmError::Input(
                            "the turn ended without an outcome".to_owned(),
                        ))),
                    },
                }
            }
            // Leaving this block drops the turn: a cancelled one stops where it was, before
            // its commit.
        };
        spinner.stop();
        screen.print(&wrapper.finish());
        match result {
            None => self.cancelled(text, &before).await,
            Some(Err(GmError::Store(StoreError::Conflict { .. }))) => {
                self.conflict(text, streamed).await;
            }
            Some(Err(error)) => {
                screen.say(Tone::Bad, &error_line(&error));
                if let GmError::Store(e) = &error {
                    self.unsaved = Some(format!(
                        "the turn \"{text}\" ({})",
                        one_line(&e.to_string())
                    ));
                }
                if !matches!(error, GmError::Input(_)) {
                    self.retry = Some(text.to_owned());
                }
            }
            Some(Ok(outcome)) => {
                self.retry = None;
                self.unsaved = None;
                if !streamed {
                    screen.wrapped("", Tone::Plain, &outcome.narration);
                }
                // If the read fails, the panel shows the changes without their totals.
                let after = self
                    .store
                    .load(&self.campaign)
                    .await
                    .unwrap_or_else(|_| before.clone());
                screen.line("");
                print_panel(&screen, &outcome.rolls, &outcome.changes, &before, &after);
                for note in &outcome.notes {
                    screen.wrapped("  ", Tone::Dim, &format!("note: {note}"));
                }
                print_suggestions(&screen, &outcome.suggested_actions);
                self.rolls.extend(outcome.rolls.iter().cloned());
                self.usage += outcome.usage;
                self.last_turn = Some((outcome.usage, outcome.model_calls()));
                self.cut += outcome.replies_cut();
                self.turns += 1;
                self.suggestions = outcome.suggested_actions;
                if !after.characters.is_empty() && after.characters.iter().all(|c| c.dead) {
                    screen.say(
                        Tone::Bad,
                        "Your story ends here. /new starts again; /load NAME goes back to a save.",
                    );
                }
            }
        }
    }

    /// After a turn refused because another game (another `play` on the same save file) moved
    /// the campaign on (played or undid a turn) while this one was thinking: says so, takes back
    /// the narration already shown, and reloads the campaign as the other game left it (the
    /// recap that follows says how many turns it now has).
    async fn conflict(&mut self, text: &str, streamed: bool) {
        let screen = self.screen;
        let taken_back = if streamed {
            " That turn was not kept: what was just told did not happen."
        } else {
            " Your turn was not kept."
        };
        screen.wrapped(
            "",
            Tone::Bad,
            &format!(
                "Another game is running on this save ({}): it moved {} on while this turn was \
                 played.{taken_back} Reloading; /retry plays your words again from there.",
                self.db.display(),
                self.name
            ),
        );
        self.unsaved = Some(format!(
            "the turn \"{text}\" (another game on this save moved it on first)"
        ));
        let reloaded = async {
            let info = self
                .campaigns()
                .await?
                .into_iter()
                .find(|c| c.id == self.campaign)
                .ok_or_else(|| format!("{} is no longer in the save file", self.name))?;
            let state = self.state().await?;
            self.switch_to(info, &state).await
        };
        if let Err(why) = reloaded.await {
            screen.say(Tone::Bad, &format!("error: cannot reload the game: {why}"));
        }
        self.retry = Some(text.to_owned());
    }

    /// After Ctrl-C: says whether anything was written (only a turn already committing can
    /// have been).
    async fn cancelled(&mut self, text: &str, before: &GameState) {
        self.retry = Some(text.to_owned());
        let turn_now = self
            .store
            .load(&self.campaign)
            .await
            .map_or(before.turn, |s| s.turn);
        if turn_now > before.turn {
            self.screen.say(
                Tone::Dim,
                "Cancelled, but the turn had already been saved: /log shows what happened.",
            );
        } else {
            self.screen.say(
                Tone::Dim,
                "Turn cancelled: nothing was written. /retry sends it again.",
            );
        }
    }

    /// What typing `n` means: the n-th suggestion's words, as they were shown.
    pub fn suggestion(&self, n: usize) -> Result<String, String> {
        match self.suggestions.get(n.wrapping_sub(1)) {
            Some(action) => Ok(terminal_safe(&action.description).into_owned()),
            None if self.suggestions.is_empty() => Err(format!(
                "there are no suggestions to pick from; say what you do instead of {n}"
            )),
            None => Err(format!(
                "there is no suggestion {n}: pick 1 to {}, or say what you do",
                self.suggestions.len()
            )),
        }
    }

    /// The input to try again with `/retry`.
    pub fn retry_input(&self) -> Option<String> {
        self.retry.clone()
    }

    /// The current state (for `/sheet`, `/inventory`, `/map`).
    pub async fn state(&self) -> Result<GameState, String> {
        self.store
            .load(&self.campaign)
            .await
            .map_err(|e| e.to_string())
    }

    /// The store and the campaign being played (for `/fair`, `/reveal`, `/verify`).
    pub fn campaign(&self) -> (&dyn GameStore, &CampaignId) {
        (&*self.store, &self.campaign)
    }

    /// This session's rolls.
    pub fn session_rolls(&self) -> &[RollRecord] {
        &self.rolls
    }

    /// Prints tokens and money spent this session.
    pub fn print_cost(&self) {
        views::print_cost(
            &self.screen,
            &self.usage,
            self.last_turn.as_ref(),
            self.offline,
            self.turns,
        );
        if !self.offline {
            views::print_caps(&self.screen, &self.gm.output_caps(), self.cut);
        }
    }

    /// The story so far, one line per entry, oldest first: the story log's events, or, while
    /// the log is still empty, what was said and answered each turn. At most `last` entries.
    pub async fn story(&self, last: usize) -> Result<Vec<String>, String> {
        story_lines(self.store.as_ref(), &self.campaign, last).await
    }

    /// Every campaign in the save file.
    pub async fn campaigns(&self) -> Result<Vec<CampaignInfo>, String> {
        self.store.list_campaigns().await.map_err(|e| e.to_string())
    }

    /// The campaign being played, by name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The goodbye on leaving: "Saved as ..." only when nothing failed to save since the last
    /// turn that was; otherwise what was not saved and why.
    pub fn farewell(&self) -> (Tone, String) {
        match &self.unsaved {
            None => (
                Tone::Dim,
                format!(
                    "Saved as {}. Farewell; `play` picks it up where you left it.",
                    self.name
                ),
            ),
            Some(what) => (
                Tone::Bad,
                format!(
                    "Not saved: {what}. {} keeps the game without that turn. Farewell.",
                    self.name
                ),
            ),
        }
    }

    /// Starts a new game of the adventure with the chosen character, and shows the first room.
    pub async fn new_game(&mut self) -> Result<(), String> {
        let (id, name, state) = dnd_table::campaign::new_campaign(
            self.store.as_ref(),
            &self.adventure,
            std::slice::from_ref(&self.character),
        )
        .await?;
        self.enter(id, name);
        let screen = self.screen;
        screen.say(
            Tone::Bold,
            &format!("A new game: \"{}\" (saved as {})", state.title, self.name),
        );
        if !state.summary.trim().is_empty() {
            screen.wrapped("", Tone::Dim, state.summary.trim());
        }
        if let Some(room) = state.party_location() {
            screen.line("");
            screen.say(Tone::Place, &room.title);
            screen.wrapped("", Tone::Plain, &room.description);
        }
        if let Some(c) = state.characters.first() {
            screen.line("");
            screen.wrapped(
                "",
                Tone::Dim,
                &format!(
                    "You are {}, a level {} {}. Type what {} does (\"look around\", \"search \
                     the ice\"), or /help for the commands.",
                    c.name, c.level, c.class, c.name
                ),
            );
        }
        Ok(())
    }

    /// `/save NAME`: saves the game under a new name, as "save as" does in an editor: the copy
    /// is the game from now on, and the old name keeps the game as it was. Saving never
    /// destroys: a name another save already has is refused, and that save stays whole.
    pub async fn save_as(&mut self, name: &str) -> Result<(), String> {
        let name = name.trim();
        if name.eq_ignore_ascii_case(self.name.trim()) {
            return match &self.unsaved {
                None => {
                    self.screen.say(
                        Tone::Good,
                        &format!("Saved as {} (every turn is saved when it ends).", self.name),
                    );
                    Ok(())
                }
                Some(what) => Err(format!(
                    "not saved: {what}; {} keeps the game without that turn",
                    self.name
                )),
            };
        }
        if name.is_empty() || name.chars().count() > 40 || name.chars().any(char::is_control) {
            return Err(
                "a save's name is 1 to 40 characters, without control characters: /save NAME"
                    .to_owned(),
            );
        }
        let campaigns = self.campaigns().await?;
        if let Some(taken) = storage::named(&campaigns, name).last() {
            return Err(format!(
                "there is already a save named {} ({} turns), and saving never replaces one: \
                 choose another name, or /load {} to go back to it",
                taken.name, taken.turns, taken.name
            ));
        }
        let current = self.state().await?;
        let ids: Vec<&str> = current.characters.iter().map(|c| c.id.as_str()).collect();
        // The state the campaign started from, rebuilt from the adventure; if it is another
        // adventure, the copy keeps the current state without the history. A new game draws a
        // fresh dice seed: the copy keeps the campaign's, so that its turns replay to the same
        // state, and so that saving under a new name can never roll a turn's dice again.
        let initial = if current.title == self.adventure.title {
            self.adventure.new_game(&ids).ok().map(|mut initial| {
                initial.dice_seed = current.dice_seed;
                initial
            })
        } else {
            None
        };
        let copied = match &initial {
            Some(initial) => {
                storage::copy_campaign(self.store.as_ref(), &self.campaign, name, initial).await?
            }
            None => {
                let id = self
                    .store
                    .create_campaign(name, &current)
                    .await
                    .map_err(|e| e.to_string())?;
                Copied::StateOnly(id)
            }
        };
        let (id, whole) = match copied {
            Copied::WithHistory(id) => (id, true),
            Copied::StateOnly(id) => (id, false),
        };
        let previous = std::mem::take(&mut self.name);
        self.enter(id, name.to_owned());
        let story = if whole {
            ""
        } else {
            " (the story log stays with the old name)"
        };
        self.screen.say(
            Tone::Good,
            &format!(
                "Saved as {name}{story}; you play on as {name}. /load {previous} goes back to \
                 the game as it was."
            ),
        );
        Ok(())
    }

    /// `/load NAME`: switches to the saved game of that name and shows its recap.
    pub async fn load(&mut self, name: &str) -> Result<(), String> {
        let campaigns = self.campaigns().await?;
        let Some(found) = storage::named(&campaigns, name)
            .last()
            .map(|c| (*c).clone())
        else {
            return Err(format!(
                "no save named {:?}; the saves are: {}",
                name.trim(),
                list(&campaigns)
            ));
        };
        let state = self
            .store
            .load(&found.id)
            .await
            .map_err(|e| e.to_string())?;
        self.switch_to(found, &state).await
    }

    /// Makes `info` the campaign being played and shows its recap.
    async fn switch_to(&mut self, info: CampaignInfo, state: &GameState) -> Result<(), String> {
        let recent = story_lines(self.store.as_ref(), &info.id, RECAP_EVENTS).await?;
        // `/new` then starts over with the same hero.
        if let Some(hero) = state.characters.first()
            && state.title == self.adventure.title
            && self.adventure.character_ids().contains(&hero.id.as_str())
        {
            self.character = hero.id.clone();
        }
        self.enter(info.id, info.name);
        views::print_recap(&self.screen, &self.name, state, &recent);
        Ok(())
    }

    /// Plays `id` from now on, and remembers it for the next start.
    fn enter(&mut self, id: CampaignId, name: String) {
        storage::remember(&self.db, &id);
        self.campaign = id;
        self.name = name;
        self.suggestions.clear();
        self.retry = None;
    }
}

/// A failed turn in one line, with what to do.
fn error_line(error: &GmError) -> String {
    match error {
        GmError::Input(why) => one_line(why),
        GmError::Provider(e) => format!(
            "error: {} — nothing was saved; /retry sends the same words again",
            one_line(&e.to_string())
        ),
        GmError::Store(e) => format!(
            "error: the save file failed: {} — nothing was saved; /retry tries again",
            one_line(&e.to_string())
        ),
        // Its message already says nothing was saved.
        GmError::Deadline { .. } => format!(
            "error: {}; /retry tries again",
            one_line(&error.to_string())
        ),
        other => format!(
            "error: {} — nothing was saved",
            one_line(&other.to_string())
        ),
    }
}
