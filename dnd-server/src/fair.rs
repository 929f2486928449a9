//! The provably fair dice routes (`dnd_engine::fair`): a seat opts its campaign in, sets the
//! client seed, reveals the seed; anyone with a seat reads the status and exports the log; and
//! anyone verifies a campaign's log or a posted one. No answer holds a seed before its reveal.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use dnd_engine::fair::{self, AfterReveal, FairError, FairLog, FairStatus, NewSeeds, VerifyReport};
use dnd_engine::store::{CampaignId, StoreError};
use serde::Deserialize;

use crate::Server;
use crate::error::{ApiError, RawBody, parse_body};

/// The body of `POST /fair` and `POST /fair/client-seed`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ClientSeed {
    client_seed: Option<String>,
}

/// The body of `POST /fair/reveal`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Reveal {
    /// `"recommit"` (the default) or `"off"`.
    then: Option<String>,
}

/// A fair-dice error as the API sends it.
fn api_error(error: FairError, id: &str) -> ApiError {
    match error {
        FairError::Refused(message) => ApiError::new(StatusCode::CONFLICT, "fair_refused", message),
        FairError::Store(StoreError::NotFound(_)) => ApiError::campaign_not_found(id),
        FairError::Store(StoreError::Conflict { .. }) => ApiError::new(
            StatusCode::CONFLICT,
            "turn_in_progress",
            "the campaign moved while this ran; try again",
        ),
        FairError::Store(e) => ApiError::internal(e.to_string()),
    }
}

/// `GET /api/campaigns/{id}/fair`: the commitment in force and the revealed seeds.
pub async fn status(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<FairStatus>, ApiError> {
    server.authorize(&id, &headers).await?;
    let state = server
        .store
        .load(&CampaignId(id.clone()))
        .await
        .map_err(|e| api_error(e.into(), &id))?;
    Ok(Json(FairStatus::of(&state)))
}

/// `POST /api/campaigns/{id}/fair`: opts in (a seed committed, its hash published).
pub async fn turn_on(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<(StatusCode, Json<FairStatus>), ApiError> {
    server.authorize(&id, &headers).await?;
    let request: ClientSeed = parse_body(&body)?;
    let live = server.live_of(&id);
    let _turn = live.try_lock()?;
    let campaign = CampaignId(id.clone());
    let status = fair::turn_on(
        &*server.store,
        &campaign,
        request.client_seed.as_deref(),
        NewSeeds::Os,
    )
    .await
    .map_err(|e| api_error(e, &id))?;
    live.touch();
    Ok((StatusCode::CREATED, Json(status)))
}

/// `POST /api/campaigns/{id}/fair/client-seed`: a new client seed (the seed in force is
/// revealed and a new one committed).
pub async fn client_seed(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<FairStatus>, ApiError> {
    server.authorize(&id, &headers).await?;
    let request: ClientSeed = parse_body(&body)?;
    let Some(seed) = request.client_seed else {
        return Err(ApiError::bad_request(
            "give \"client_seed\": 1 to 64 characters from A-Z, a-z, 0-9, _ and -",
        ));
    };
    let live = server.live_of(&id);
    let _turn = live.try_lock()?;
    let status =
        fair::set_client_seed(&*server.store, &CampaignId(id.clone()), &seed, NewSeeds::Os)
            .await
            .map_err(|e| api_error(e, &id))?;
    live.touch();
    Ok(Json(status))
}

/// `POST /api/campaigns/{id}/fair/reveal`: reveals the seed in force, then commits a new one
/// (`"then": "recommit"`, the default) or turns fair dice off (`"off"`).
pub async fn reveal(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    RawBody(body): RawBody,
) -> Result<Json<FairStatus>, ApiError> {
    server.authorize(&id, &headers).await?;
    let request: Reveal = parse_body(&body)?;
    let then = match request.then.as_deref() {
        None | Some("recommit") => AfterReveal::Recommit,
        Some("off") => AfterReveal::Off,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "\"then\" is \"recommit\" or \"off\"; got {:?}",
                crate::short(other)
            )));
        }
    };
    let live = server.live_of(&id);
    let _turn = live.try_lock()?;
    let status = fair::reveal(&*server.store, &CampaignId(id.clone()), then, NewSeeds::Os)
        .await
        .map_err(|e| api_error(e, &id))?;
    live.touch();
    Ok(Json(status))
}

/// `GET /api/campaigns/{id}/fair/log`: the fair-dice log (revealed seeds, commitments, rolls).
pub async fn log(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<FairLog>, ApiError> {
    Ok(Json(seated_log(&server, &id, &headers).await?))
}

/// `GET /api/campaigns/{id}/fair/verify`: the campaign's log, verified.
pub async fn verify_campaign(
    State(server): State<Arc<Server>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Json<VerifyReport>, ApiError> {
    let log = seated_log(&server, &id, &headers).await?;
    Ok(Json(fair::verify(&log)))
}

/// The campaign's fair-dice log, for a seat of it.
async fn seated_log(server: &Server, id: &str, headers: &HeaderMap) -> Result<FairLog, ApiError> {
    server.authorize(id, headers).await?;
    fair::export(&*server.store, &CampaignId(id.to_owned()))
        .await
        .map_err(|e| api_error(e, id))
}

/// `POST /api/fair/verify`: a posted log (with its revealed seeds), verified. Needs no seat:
/// anyone may check a log.
pub async fn verify_posted(RawBody(body): RawBody) -> Result<Json<VerifyReport>, ApiError> {
    let log: FairLog = parse_body(&body)?;
    if log.format != fair::FORMAT {
        return Err(ApiError::bad_request(format!(
            "\"format\" must be {:?}; got {:?}",
            fair::FORMAT,
            crate::short(&log.format)
        )));
    }
    Ok(Json(fair::verify(&log)))
}
