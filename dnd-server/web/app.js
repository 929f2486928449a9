// The table's page: plain JavaScript, no framework, no build step (the server compiles this
// file in). It talks to the JSON API described by /api/openapi.json. Every campaign request
// carries the seat's token as a bearer token; the token lives in this browser's localStorage
// and in the seat link's fragment (`/play/{id}#{token}`), which never reaches the server.
'use strict';

const STORE_KEY = 'dnd-table.campaigns';
const LAST_KEY = 'dnd-table.last';

// When the server's list of adventures cannot be read: its default adventure and hero.
const SERVER_DEFAULT = [{ id: '', title: "The server's default adventure", heroes: [] }];

const $ = (id) => document.getElementById(id);

// A script error the page did not handle is kept on the root element, so a test (or a person
// in the inspector) sees it; the page itself goes on.
for (const kind of ['error', 'unhandledrejection']) {
  window.addEventListener(kind, (event) => {
    const why = event.message || (event.reason && (event.reason.message || String(event.reason))) || kind;
    document.documentElement.dataset.scriptError = why;
  });
}

/** What the page knows: the open campaign, this seat, the last view, and what is running. */
const state = {
  id: null, // campaign id
  token: null, // this seat's token
  view: null, // the last View
  shownTurn: -1, // the turn the story list shows
  busy: false, // this seat's turn is streaming
  echoTurn: null, // our own turn, whose echo on the events stream is skipped
  sharedTurn: -1, // the newest turn whose view came on the events stream
  events: null, // AbortController of the events stream
  live: null, // the entry another seat's live turn is written into
  adventures: null, // the adventures the new-game dialog offers
};

/** Shows `message` where the player is looking: in the open dialog, else beside the action
 * box, else on the welcome screen; an empty message clears every box. */
function showError(message) {
  const boxes = [...document.querySelectorAll('.error')];
  for (const box of boxes) {
    box.textContent = '';
    box.hidden = true;
  }
  if (!message) return;
  const dialog = document.querySelector('dialog[open]');
  const box = dialog ? dialog.querySelector('.dialog-error') : $('table').hidden ? $('welcome-error') : $('error');
  box.textContent = message;
  box.hidden = false;
  box.scrollIntoView({ block: 'nearest' });
}

function loadSaved() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) || '[]');
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

function saveCampaign(entry) {
  const list = loadSaved().filter((c) => c.id !== entry.id);
  list.unshift(entry);
  localStorage.setItem(STORE_KEY, JSON.stringify(list));
  localStorage.setItem(LAST_KEY, entry.id);
}

function forgetCampaign(id) {
  localStorage.setItem(STORE_KEY, JSON.stringify(loadSaved().filter((c) => c.id !== id)));
  if (localStorage.getItem(LAST_KEY) === id) localStorage.removeItem(LAST_KEY);
}

// ---------- the API ----------

/** The message of an API error body, or the status when the body is no API error. */
async function apiError(response) {
  try {
    const body = await response.json();
    if (body && body.error) return { code: body.error.code, message: body.error.message };
  } catch {
    // not JSON: fall through to the status
  }
  return { code: `http_${response.status}`, message: `The server answered ${response.status} ${response.statusText}.` };
}

/** A JSON request; throws `{code, message}` on an error status. */
async function api(method, path, body, token = state.token) {
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!response.ok) throw await apiError(response);
  if (response.status === 204) return null;
  return response.json();
}

/**
 * Reads a server-sent event stream from a fetch response, calling `onEvent(name, data)` for
 * each event. EventSource cannot send the Authorization header (nor POST), so both streams
 * are read this way.
 */
async function readEvents(response, onEvent) {
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let carry = ''; // a chunk's last '\r' waits: its '\n' may open the next chunk
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    let chunk = carry + value;
    carry = chunk.endsWith('\r') ? '\r' : '';
    if (carry) chunk = chunk.slice(0, -1);
    buffer += chunk.replace(/\r\n?/g, '\n');
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      const data = [];
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue; // a keep-alive comment
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const text = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') name = text;
        else if (field === 'data') data.push(text);
      }
      if (data.length === 0) continue;
      let parsed;
      try {
        parsed = JSON.parse(data.join('\n'));
      } catch {
        parsed = { text: data.join('\n') };
      }
      onEvent(name, parsed);
    }
  }
}

// ---------- the story ----------

/** A story entry: who speaks, and a body the narration streams into. */
function storyEntry(speaker, kind, text = '') {
  const body = el('div', { class: 'body' });
  if (text) body.append(el('p', {}, text));
  const item = el('li', { class: `entry ${kind}`, 'data-testid': `entry-${kind}` },
    el('span', { class: 'speaker' }, speaker), body);
  $('story').querySelector(':scope > .hint')?.remove();
  $('story').append(item);
  followStory();
  return { item, body, paragraph: null, tools: new Map() };
}

/** Keeps the newest of the story in sight as it grows (the list scrolls, not the page). */
function followStory() {
  const story = $('story');
  story.scrollTop = story.scrollHeight;
}

/** Applies one turn event (from our own turn's stream or the shared one) to an entry. */
function applyTurnEvent(entry, name, data) {
  if (name === 'narration') {
    if (!entry.paragraph) {
      entry.paragraph = el('p', { class: 'narration', 'data-testid': 'narration' });
      entry.body.append(entry.paragraph);
    }
    entry.paragraph.append(data.text || '');
  } else if (name === 'tool_call') {
    const args = el('pre', { class: 'args' }, JSON.stringify(data.arguments ?? {}, null, 2));
    const result = el('pre', { class: 'result', 'data-testid': 'tool-result' }, '…');
    const details = el('details', { class: 'tool', 'data-testid': 'tool-call', 'data-name': data.name },
      el('summary', {}, el('span', { class: 'tool-name' }, data.name), ' ',
        el('span', { class: 'tool-state' }, 'running')),
      el('h4', {}, 'Arguments'), args, el('h4', {}, 'Result'), result);
    entry.tools.set(data.id ?? data.name, details);
    entry.body.append(details);
    entry.paragraph = null; // narration after a tool call starts a new paragraph
  } else if (name === 'tool_result') {
    const details = entry.tools.get(data.id ?? data.name);
    if (!details) return;
    const refused = data.refused !== undefined && data.refused !== null;
    details.classList.add(refused ? 'refused' : 'done');
    details.querySelector('.tool-state').textContent = refused ? 'refused' : 'done';
    details.querySelector('.result').textContent = refused
      ? describe(data.refused)
      : JSON.stringify(data.result ?? null, null, 2);
  } else if (name === 'error') {
    entry.body.append(el('p', { class: 'turn-error' }, data.message || 'The turn failed.'));
  }
  followStory();
}

/** The whole story from a view's log (on load, reload, undo, or a turn played elsewhere). */
function renderLog(view) {
  const story = $('story');
  story.replaceChildren();
  for (const line of view.log || []) {
    const gm = /^(gm|game ?master|narrator)$/i.test(line.speaker || '');
    const who = !line.speaker || line.speaker === 'player' ? 'Player' : line.speaker;
    storyEntry(gm ? 'Game master' : who, gm ? 'gm' : 'player', line.text);
  }
  if (!story.children.length) story.append(el('li', { class: 'hint' }, 'The story begins when you say what you do.'));
  state.shownTurn = view.turn;
}

function applyView(view, { redraw = false } = {}) {
  state.view = view;
  // For tests and styles: the turn shown, whose turn it is in a fight, and this seat's hero.
  const table = $('table');
  table.dataset.turn = view.turn;
  table.dataset.whose = view.whose_turn || '';
  table.dataset.seat = (view.seat && view.seat.hero) || '';
  table.dataset.fight = view.combat ? 'true' : 'false';
  if (redraw || view.turn !== state.shownTurn) renderLog(view);
  renderStatus(view);
  renderSheets(view);
  renderRolls(view);
  renderSuggestions(view);
  renderMap(view);
  renderCombat(view);
  renderSeats(view);
  $('undo').disabled = state.busy || !view.turn;
}

function setBusy(busy) {
  state.busy = busy;
  $('table').dataset.busy = busy ? 'true' : 'false';
  $('story').setAttribute('aria-busy', busy ? 'true' : 'false');
  $('send').disabled = busy;
  $('undo').disabled = busy || !(state.view && state.view.turn);
  if (state.view) renderSuggestions(state.view);
}

// ---------- playing ----------

/** Plays one turn (typed words or a suggested action) and streams it into the story. */
async function playTurn(path, body, said) {
  if (state.busy || !state.id) return;
  showError('');
  setBusy(true);
  const hero = (state.view && state.view.seat && state.view.seat.hero) || 'You';
  const player = storyEntry(hero, 'player', said);
  let entry = null;
  let outcome = null;
  try {
    const response = await fetch(`/api/campaigns/${encodeURIComponent(state.id)}/${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream', Authorization: `Bearer ${state.token}` },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw await apiError(response);
    entry = storyEntry('Game master', 'gm');
    await readEvents(response, (name, data) => {
      if (name === 'outcome') outcome = data;
      else if (name === 'error') throw { code: data.code, message: data.message };
      else applyTurnEvent(entry, name, data);
    });
    if (!outcome) throw { code: 'stream_ended', message: 'The turn ended without an outcome; reload to see the campaign.' };
  } catch (error) {
    // A refused or failed turn writes nothing: take back what was shown of it.
    player.item.remove();
    if (entry) entry.item.remove();
    showError(error.message || String(error));
    setBusy(false);
    return false;
  }
  // Skip this turn's echo on the shared stream, unless its view came there first.
  const played = outcome.turn ?? outcome.view.turn;
  state.echoTurn = state.sharedTurn === played ? null : played;
  state.shownTurn = outcome.view.turn;
  setBusy(false);
  applyView(outcome.view);
  return true;
}

function sendText(event) {
  event.preventDefault();
  const box = $('action-text');
  const text = box.value.trim();
  if (!text) return;
  playTurn('turns', { text }, text).then((ok) => {
    if (ok) box.value = '';
    box.focus();
  });
}

function chooseAction(suggestion) {
  playTurn('actions', { index: suggestion.index }, suggestion.description || suggestion.label).then(() => $('action-text').focus());
}

async function undo() {
  if (state.busy || !state.id) return;
  showError('');
  try {
    const view = await api('POST', `/api/campaigns/${encodeURIComponent(state.id)}/undo`);
    state.sharedTurn = view.turn;
    applyView(view, { redraw: true });
  } catch (error) {
    showError(error.message);
  }
}

/**
 * Follows the campaign's shared event stream: another seat's turn is written live; our own
 * turn's echo is skipped (it was streamed already). Reconnects after a drop.
 */
async function followEvents() {
  if (state.events) state.events.abort();
  const control = new AbortController();
  state.events = control;
  const id = state.id;
  while (!control.signal.aborted && state.id === id) {
    try {
      const response = await fetch(`/api/campaigns/${encodeURIComponent(id)}/events`, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${state.token}` },
        signal: control.signal,
      });
      if (!response.ok) throw await apiError(response);
      $('table').dataset.live = 'true';
      await readEvents(response, onSharedEvent);
    } catch (error) {
      if (control.signal.aborted) return;
      if (error && error.code && error.code !== 'rate_limited') {
        showError(`Live updates stopped: ${error.message}`);
        return;
      }
    }
    $('table').dataset.live = 'false';
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function onSharedEvent(name, data) {
  if (name === 'view' || name === 'outcome') {
    const view = data.view || data;
    if (state.live) {
      state.shownTurn = view.turn; // the live entry already shows this turn
      state.live = null;
    }
    state.sharedTurn = view.turn; // views come in order: this is the campaign's turn now
    if (state.echoTurn !== null && view.turn >= state.echoTurn) state.echoTurn = null;
    if (!state.busy) applyView(view);
    return;
  }
  // While our own turn runs, or until its echo's view arrives, the events are ours.
  if (state.busy || state.echoTurn !== null) return;
  if (name === 'turn_started') {
    // Another seat (or an AI companion) starts a turn: its words, then the answer as it comes.
    const who = `${data.hero || 'Another player'}${data.ai ? ' (AI companion)' : ''}`;
    storyEntry(who, 'player', data.text || '');
    state.live = storyEntry('Game master', 'gm');
    state.live.item.dataset.live = 'true';
    return;
  }
  if (!state.live) {
    state.live = storyEntry('Game master', 'gm');
    state.live.item.dataset.live = 'true';
  }
  applyTurnEvent(state.live, name, data);
}

// ---------- opening campaigns ----------

async function openCampaign(id, token) {
  if (state.events) state.events.abort();
  Object.assign(state, { id, token, view: null, shownTurn: -1, echoTurn: null, sharedTurn: -1, live: null });
  showError('');
  let view;
  try {
    view = await api('GET', `/api/campaigns/${encodeURIComponent(id)}`);
  } catch (error) {
    showError(`Could not open the campaign: ${error.message}`);
    state.id = null;
    return;
  }
  const saved = loadSaved().find((c) => c.id === id) || {};
  saveCampaign({ ...saved, id, token, adventure: view.adventure, hero: view.seat && view.seat.hero, turn: view.turn, saved: Date.now() });
  if (location.pathname !== `/play/${id}`) history.replaceState(null, '', `/play/${encodeURIComponent(id)}`);
  $('welcome').hidden = true;
  $('table').hidden = false;
  applyView(view, { redraw: true });
  followEvents();
  $('action-text').focus();
}

function fillHeroes() {
  const adventure = (state.adventures || SERVER_DEFAULT).find((a) => a.id === $('new-adventure').value);
  $('new-heroes').replaceChildren(...((adventure && adventure.heroes) || []).map((hero, i) =>
    el('label', { class: 'check' }, el('input', { type: 'checkbox', name: 'hero', value: hero, checked: i === 0 }), ` ${hero}`)));
}

async function openNewDialog() {
  if (!state.adventures) {
    try {
      const listed = await api('GET', '/api/adventures', undefined, null);
      state.adventures = Array.isArray(listed) && listed.length ? listed : SERVER_DEFAULT;
    } catch {
      state.adventures = SERVER_DEFAULT; // the game can still start, on the server's defaults
    }
  }
  $('new-adventure').replaceChildren(...state.adventures.map((a) => el('option', { value: a.id }, a.title || a.id)));
  fillHeroes();
  $('new-dialog').showModal();
}

async function startNewGame(event) {
  const dialog = $('new-dialog');
  if (event.submitter && event.submitter.value !== 'start') return;
  event.preventDefault();
  const heroes = [...document.querySelectorAll('#new-heroes input:checked')].map((i) => i.value);
  if (heroes.length > 4) {
    showError('A campaign seats at most four heroes.');
    return;
  }
  const body = {};
  if ($('new-adventure').value) body.adventure = $('new-adventure').value;
  if (heroes.length) body.heroes = heroes;
  if ($('new-protocol').value) body.protocol = $('new-protocol').value;
  if ($('new-seed').value !== '') body.seed = Number($('new-seed').value);
  if ($('new-companions').checked) body.companions = true;
  let created;
  try {
    created = await api('POST', '/api/campaigns', body, null);
  } catch (error) {
    showError(`Could not start the game: ${error.message}`);
    return;
  }
  dialog.close();
  const [mine] = created.seats;
  saveCampaign({ id: created.id, token: mine.token, hero: mine.hero, seats: created.seats, adventure: created.view && created.view.adventure, saved: Date.now() });
  await openCampaign(created.id, mine.token);
}

async function openLoadDialog() {
  const saved = loadSaved();
  const list = $('load-list');
  list.replaceChildren();
  if (!saved.length) list.append(el('li', {}, 'No campaign saved in this browser yet.'));
  let known = null;
  if (saved.length) {
    try {
      known = await api('GET', '/api/campaigns', undefined, saved.map((c) => c.token).join(','));
    } catch {
      known = null; // the list below still opens what it can
    }
  }
  for (const entry of saved) {
    const info = known && known.find((k) => k.id === entry.id);
    const gone = known && !info;
    const heroes = info && info.heroes ? describe(info.heroes) : entry.hero;
    const item = el('li', { 'data-testid': 'load-entry', 'data-id': entry.id },
      el('span', { class: 'load-title' }, `${(info && info.adventure) || entry.adventure || 'Campaign'} — ${heroes || '?'}`,
        info ? ` · turn ${info.turn}` : '', gone ? ' · no longer on the server' : ''),
      el('button', { type: 'button', disabled: gone, 'aria-label': `Open ${entry.adventure || 'campaign'} with ${heroes}`,
        onclick: () => { $('load-dialog').close(); openCampaign(entry.id, entry.token); } }, 'Open'),
      el('button', { type: 'button', 'aria-label': `Delete ${entry.adventure || 'campaign'} with ${heroes}`,
        onclick: async () => {
          if (!confirm('Delete this campaign for every seat?')) return;
          try {
            await api('DELETE', `/api/campaigns/${encodeURIComponent(entry.id)}`, undefined, entry.token);
          } catch (error) {
            if (error.code !== 'campaign_not_found') { showError(error.message); return; }
          }
          forgetCampaign(entry.id);
          item.remove();
        } }, 'Delete'));
    list.append(item);
  }
  $('load-dialog').showModal();
}

function start() {
  $('new-game').addEventListener('click', openNewDialog);
  $('load-game').addEventListener('click', openLoadDialog);
  $('undo').addEventListener('click', undo);
  $('new-form').addEventListener('submit', startNewGame);
  $('new-adventure').addEventListener('change', fillHeroes);
  $('action-form').addEventListener('submit', sendText);
  $('action-text').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      $('action-form').requestSubmit();
    }
  });
  // A seat link: /play/{id}#{token}. The token is kept, then taken off the address bar.
  const match = location.pathname.match(/^\/play\/([^/]+)\/?$/);
  if (match) {
    const id = decodeURIComponent(match[1]);
    const fromLink = location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : null;
    const saved = loadSaved().find((c) => c.id === id);
    const token = fromLink || (saved && saved.token);
    if (fromLink) history.replaceState(null, '', `/play/${encodeURIComponent(id)}`);
    if (token) openCampaign(id, token);
    else showError('This seat link has no token: ask for the whole link (the part after # is the seat).');
    return;
  }
  const last = localStorage.getItem(LAST_KEY);
  const saved = last && loadSaved().find((c) => c.id === last);
  if (saved) openCampaign(saved.id, saved.token);
}

document.addEventListener('DOMContentLoaded', start);
