//! `/fair`, `/reveal` and `/verify`: provably fair dice from the terminal, through the same
//! engine operations as the server (`dnd_engine::fair`). A session that quits with fair dice on
//! reveals its seed and commits the next one, so everything played so far can be checked.

use dnd_engine::fair::{self, AfterReveal, FairStatus, NewSeeds};

use crate::game::Game;
use crate::screen::Tone;

/// `/fair` (status), `/fair on [CLIENT_SEED]`, `/fair off`, `/fair seed CLIENT_SEED`.
pub async fn command(game: &Game, rest: &str) -> Result<(), String> {
    let (store, campaign) = game.campaign();
    let mut words = rest.split_whitespace();
    let status = match (words.next(), words.next()) {
        (None, _) => {
            let state = store.load(campaign).await.map_err(|e| e.to_string())?;
            FairStatus::of(&state)
        }
        (Some("on"), seed) => fair::turn_on(store, campaign, seed, NewSeeds::Os)
            .await
            .map_err(|e| e.to_string())?,
        (Some("off"), None) => fair::reveal(store, campaign, AfterReveal::Off, NewSeeds::Os)
            .await
            .map_err(|e| e.to_string())?,
        (Some("seed"), Some(seed)) => fair::set_client_seed(store, campaign, seed, NewSeeds::Os)
            .await
            .map_err(|e| e.to_string())?,
        _ => {
            return Err(
                "say /fair, /fair on [CLIENT_SEED], /fair off or /fair seed CLIENT_SEED".into(),
            );
        }
    };
    print_status(game, &status);
    Ok(())
}

/// `/reveal`: reveals the seed in force and commits a new one.
pub async fn reveal(game: &Game) -> Result<(), String> {
    let (store, campaign) = game.campaign();
    let status = fair::reveal(store, campaign, AfterReveal::Recommit, NewSeeds::Os)
        .await
        .map_err(|e| e.to_string())?;
    print_status(game, &status);
    Ok(())
}

/// At `/quit`: a fair session reveals its seed (and commits the next session's).
pub async fn end_session(game: &Game) {
    let (store, campaign) = game.campaign();
    let on = store
        .load(campaign)
        .await
        .is_ok_and(|state| state.fair.is_on());
    if on && let Err(error) = reveal(game).await {
        game.screen.say(
            Tone::Bad,
            &format!("error revealing the fair seed: {error}"),
        );
    }
}

/// `/verify`: recomputes every fair roll of the campaign from its revealed seeds.
pub async fn verify(game: &Game) -> Result<(), String> {
    let (store, campaign) = game.campaign();
    let log = fair::export(store, campaign)
        .await
        .map_err(|e| e.to_string())?;
    let report = fair::verify(&log);
    let screen = game.screen;
    if report.ok() {
        screen.say(
            Tone::Good,
            &format!(
                "Fair dice verified: {} rolls match their revealed seeds ({} not revealed yet).",
                report.verified, report.unrevealed
            ),
        );
    } else {
        screen.say(
            Tone::Bad,
            &format!("Fair dice FAILED: {} problems.", report.failures.len()),
        );
        for f in &report.failures {
            let nonce = f.nonce.map_or(String::new(), |n| format!(", nonce {n}"));
            screen.line(&format!(
                "  turn {}{nonce}: {}: {}",
                f.turn, f.label, f.reason
            ));
        }
    }
    Ok(())
}

fn print_status(game: &Game, status: &FairStatus) {
    let screen = game.screen;
    match (&status.commitment, &status.client_seed) {
        (Some(commitment), Some(client)) => {
            screen.line(&format!(
                "Fair dice on. Commitment (SHA-256 of the secret seed): {commitment}"
            ));
            screen.line(&format!("Client seed: {client}. /reveal shows the seed."));
        }
        _ => screen.line("Fair dice off: the ordinary game dice. /fair on turns them on."),
    }
    if let Some(last) = status.revealed.last() {
        screen.say(
            Tone::Dim,
            &format!(
                "Revealed seed {} (commitment {}, client seed {}, turns {} to {}).",
                last.server_seed,
                last.commitment,
                last.client_seed,
                last.first_turn,
                last.last_turn
            ),
        );
    }
}
