// The light Voila front end of the play apps.
//
// Voila's stock front end is a whole JupyterLab application (about 5 MB in ~100 files). A
// play app needs much less: the ipywidgets manager, the standard controls, and one kernel
// WebSocket. This file is bundled (build.mjs) into one script served by the `sloth` Voila
// template; the page itself is rendered by Voila on the server as usual.
//
// Flow: the page's early script (early.js) has already opened the kernel's WebSocket and
// asked for every widget's state. Here: build the widget models from the snapshot
// of their states that Voila recorded while running the cells (also in the page), render each
// widget-view output in place, then adopt the socket and reconcile with the kernel's answer,
// and keep the comms flowing both ways. Without a snapshot, the kernel's answer is awaited.
//
// The template (index.html.j2) reloads the page with Voila's stock front end should this one
// fail before the board is up: start() tells it through window.slothPage.

import * as base from '@jupyter-widgets/base';
import * as controls from '@jupyter-widgets/controls';
import { ManagerBase } from '@jupyter-widgets/base-manager';
import { Widget } from '@lumino/widgets';

import { CONTROL_TARGET, decode, encode, makeMessage, openSocket, uuid } from './protocol.js';
import { installAccess } from './access.js';
import { inlineSanitize } from './sanitize.js';

import '@lumino/widgets/style/index.css';
import '@jupyter-widgets/controls/css/widgets.css';
import '@fortawesome/fontawesome-free/css/all.min.css';
import '@fortawesome/fontawesome-free/css/v4-shims.min.css';
import './page.css';

const WIDGET_VIEW_MIME = 'application/vnd.jupyter.widget-view+json';

// ---------------------------------------------------------------------------------------
// Kernel connection (the wire format is in protocol.js)

class KernelConnection {
  constructor(config) {
    this.config = config;
    this.session = uuid();
    this.comms = new Map();      // comm_id -> Comm
    this.callbacks = new Map();  // msg_id of a message we sent -> its ipywidgets callbacks
    this.onCommOpen = () => {};
    this.onDisconnect = () => {};
    this.onKernelLost = () => {};  // the kernel died or restarted: its widgets are gone
    this._outbox = [];             // what was sent before the socket was open
  }

  _opened(socket) {
    this.socket = socket;
    for (const [msg, buffers] of this._outbox.splice(0)) socket.send(encode(socket, msg, buffers));
    return this;
  }

  // Take over the socket early.js opened, with the messages it queued meanwhile. Returns false when there is none to take.
  adopt(early) {
    if (!early || early.failed || !early.socket || early.socket.readyState > WebSocket.OPEN) return false;
    const socket = early.socket;
    this.session = early.session;
    socket.onclose = () => this._closed();
    this._queue = early.queue;  // keep queueing, in order, until flushEarly()
    socket.onmessage = (event) => {
      this.heardAt = performance.now();
      if (this._queue) this._queue.push(event.data); else this._receive(decode(socket, event.data));
    };
    const opened = socket.readyState === WebSocket.OPEN ? Promise.resolve()
      : new Promise((resolve, reject) => {
        socket.addEventListener('open', () => resolve());
        socket.addEventListener('error', () => reject(new Error('could not connect to the game server')));
      });
    return opened.then(() => this._opened(socket));
  }

  // Handle what the early socket queued, once the widget manager is there to take it.
  flushEarly() {
    const queue = this._queue || [];
    this._queue = null;
    for (const data of queue) this._receive(decode(this.socket, data));
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = openSocket(this.config, this.session);
      socket.onopen = () => resolve(this._opened(socket));
      socket.onerror = () => reject(new Error('could not connect to the game server'));
      socket.onclose = () => this._closed();
      socket.onmessage = (event) => this._receive(decode(socket, event.data));
    });
  }

  _closed() {
    if (this.socket) this.onDisconnect();
    this.socket = null;
    this.closed = true;
  }

  send(channel, msgType, content, metadata = {}, buffers = [], callbacks = undefined) {
    if (this.closed) throw new Error('the connection to the game server is closed');
    const msg = makeMessage(this.session, channel, msgType, content, metadata);
    if (callbacks) this.callbacks.set(msg.header.msg_id, callbacks);
    if (this.socket) this.socket.send(encode(this.socket, msg, buffers)); else this._outbox.push([msg, buffers]);
    return msg.header.msg_id;
  }

  _receive(msg) {
    this.heardAt = performance.now();  // heard from the kernel (see withinAnswerTime)
    const type = msg.header.msg_type;
    const content = msg.content;
    if (type === 'status' && ['restarting', 'autorestarting', 'dead'].includes(content.execution_state)) {
      this.onKernelLost(content.execution_state);
    }
    if (type === 'comm_open') {
      const comm = new Comm(this, content.comm_id, content.target_name);
      this.comms.set(comm.comm_id, comm);
      this.onCommOpen(comm, msg);
    } else if (type === 'comm_msg' || type === 'comm_close') {
      const comm = this.comms.get(content.comm_id);
      if (comm) comm._deliver(type, msg);
    }
    this._dispatchCallbacks(msg);
  }

  // the same routing as @jupyter-widgets/base's services shim (_hookupCallbacks)
  _dispatchCallbacks(msg) {
    const parent = msg.parent_header && msg.parent_header.msg_id;
    const callbacks = parent && this.callbacks.get(parent);
    if (!callbacks) return;
    const type = msg.header.msg_type;
    if (msg.channel === 'shell') {
      if (callbacks.shell && callbacks.shell.reply) callbacks.shell.reply(msg);
      return;
    }
    if (msg.channel !== 'iopub') return;
    const iopub = callbacks.iopub || {};
    if (type === 'status') {
      if (iopub.status) iopub.status(msg);
      if (msg.content.execution_state === 'idle') this.callbacks.delete(parent);
    } else if (type === 'clear_output') {
      if (iopub.clear_output) iopub.clear_output(msg);
    } else if (['display_data', 'execute_result', 'stream', 'error'].includes(type)) {
      if (iopub.output) iopub.output(msg);
    }
  }
}

// The comm interface ipywidgets expects (IClassicComm).
class Comm {
  constructor(kernel, commId, targetName) {
    this.kernel = kernel;
    this.comm_id = commId;
    this.target_name = targetName;
    this._onMsg = null;
    this._onClose = null;
    this._waiting = [];          // messages that arrived before on_msg was called
    this._alreadySent = false;   // early.js already sent the first message
  }

  open(data, callbacks, metadata, buffers) {
    return this.kernel.send('shell', 'comm_open',
      { comm_id: this.comm_id, target_name: this.target_name, data }, metadata, buffers, callbacks);
  }

  send(data, callbacks, metadata, buffers) {
    if (this._alreadySent) { this._alreadySent = false; return ''; }
    return this.kernel.send('shell', 'comm_msg', { comm_id: this.comm_id, data }, metadata, buffers, callbacks);
  }

  close(data, callbacks, metadata, buffers) {
    this.kernel.comms.delete(this.comm_id);
    if (this.kernel.closed) return '';
    return this.kernel.send('shell', 'comm_close', { comm_id: this.comm_id, data: data || {} },
      metadata, buffers, callbacks);
  }

  on_msg(callback) {
    this._onMsg = callback;
    for (const msg of this._waiting.splice(0)) callback(msg);
  }

  on_close(callback) { this._onClose = callback; }

  _deliver(type, msg) {
    if (type === 'comm_msg') {
      if (this._onMsg) this._onMsg(msg); else this._waiting.push(msg);
    } else {
      this.kernel.comms.delete(this.comm_id);
      if (this._onClose) this._onClose(msg);
    }
  }
}

// ---------------------------------------------------------------------------------------
// The widget manager: ipywidgets' own ManagerBase, with comms from the connection above and
// the two standard widget modules built in.

// Each with the version of the widget model spec it implements (what ipywidgets sends as a
// model's _model_module_version; build.mjs records them in BUILT_AGAINST.json).
const MODULES = {
  '@jupyter-widgets/base': { version: base.JUPYTER_WIDGETS_VERSION, exports: base },
  '@jupyter-widgets/controls': { version: controls.JUPYTER_CONTROLS_VERSION, exports: controls },
};

// A model module version the built-in module can serve: the same major version (semver).
function servesVersion(module, wanted) {
  const version = String(wanted || '*').replace(/^[~^=v]+/, '');
  return version === '*' || version.split('.', 1)[0] === module.version.split('.', 1)[0];
}

class WidgetManager extends ManagerBase {
  constructor(kernel, earlyControlCommId = null) {
    super();
    this.kernel = kernel;
    // The control comm early.js opened, with request_states already sent.
    this._earlyControl = null;
    if (earlyControlCommId) {
      this._earlyControl = new Comm(kernel, earlyControlCommId, CONTROL_TARGET);
      this._earlyControl._alreadySent = true;
      kernel.comms.set(earlyControlCommId, this._earlyControl);
    }
    kernel.onCommOpen = (comm, msg) => {
      if (comm.target_name === this.comm_target_name) this.handle_comm_open(comm, msg);
    };
  }

  async loadClass(className, moduleName, moduleVersion) {
    const module = MODULES[moduleName];
    if (!module || !servesVersion(module, moduleVersion) || !module.exports[className]) {
      throw new Error(`widget class ${className} from ${moduleName}@${moduleVersion} is not in this front end`);
    }
    return module.exports[className];
  }

  async _create_comm(targetName, modelId, data, metadata, buffers) {
    if (targetName === CONTROL_TARGET && this._earlyControl) {
      const early = this._earlyControl;
      this._earlyControl = null;
      return early;
    }
    const comm = new Comm(this.kernel, modelId || uuid(), targetName);
    this.kernel.comms.set(comm.comm_id, comm);
    if (data || metadata) comm.open(data, undefined, metadata, buffers);
    return comm;
  }

  // Only used when the control comm fails (ipywidgets' fallback): list the widget comms.
  _get_comm_info() {
    return new Promise((resolve) => {
      this.kernel.send('shell', 'comm_info_request', { target_name: this.comm_target_name }, {}, [], {
        shell: { reply: (msg) => resolve(msg.content.comms || {}) },
      });
    });
  }

  // ipywidgets' own version strips math first, then calls sanitize-html; math is not used here
  inline_sanitize(source) {
    return inlineSanitize(source);
  }

  loadFromKernel() {
    return this._loadFromKernel();
  }

  // Models from a saved widget state (the `application/vnd.jupyter.widget-state+json` format),
  // only those the given views reach; each gets its comm, as _loadFromKernel does.
  async loadFromSnapshot(snapshot, viewModelIds) {
    const states = snapshot.state || {};
    const wanted = new Set();
    const visit = (value) => {
      if (typeof value === 'string') {
        if (value.startsWith('IPY_MODEL_')) reach(value.slice('IPY_MODEL_'.length));
      } else if (Array.isArray(value)) {
        value.forEach(visit);
      } else if (value && typeof value === 'object') {
        Object.values(value).forEach(visit);
      }
    };
    const reach = (id) => {
      if (wanted.has(id) || !(id in states)) return;
      wanted.add(id);
      visit(states[id].state);
    };
    viewModelIds.forEach(reach);
    if ([...wanted].some((id) => states[id].buffers && states[id].buffers.length)) {
      throw new Error('a widget state with binary buffers: wait for the kernel instead');
    }
    await Promise.all([...wanted].map(async (id) => {
      const comm = await this._create_comm(this.comm_target_name, id);
      const saved = states[id];
      return this.new_model({
        model_name: saved.model_name, model_module: saved.model_module,
        model_module_version: saved.model_module_version, model_id: id, comm,
      }, saved.state);
    }));
    return wanted.size;
  }
}

// ---------------------------------------------------------------------------------------
// The page

function pageConfig() {
  const element = document.getElementById('jupyter-config-data');
  return element ? JSON.parse(element.textContent) : {};
}

// A sentence at the top of the page; with `reload`, a button that reloads the page.
function showBanner(text, reload = true) {
  let banner = document.querySelector('.sk-page-banner');
  if (!banner) {
    banner = document.createElement('div');
    banner.className = 'sk-page-banner';
    banner.setAttribute('role', 'alert');
    document.body.prepend(banner);
  }
  banner.textContent = text;
  if (reload) {
    const button = document.createElement('button');
    button.className = 'sk-page-reload';
    button.type = 'button';
    button.textContent = 'Reload the page';
    button.addEventListener('click', () => location.reload());
    banner.append(' ', button);
  }
}

// How long the kernel has to answer the page's first request (every widget's state) before the
// page gives up on it: generous, since a busy machine is slow, but bounded (a stopped or stuck
// kernel would never answer). The first time, the page reloads itself once, which gets it a
// fresh kernel; the second time it says so and offers a reload. (A test may shorten it.)
const ANSWER_MS = window.slothAnswerTimeoutMs || 60000;
const RETRY_KEY = `sloth-retried:${location.pathname}${location.search}`;

// `promise`, or a "no answer" error once the kernel has sent nothing for ANSWER_MS (a stopped or
// stuck kernel). A kernel that keeps answering is waited for however long the page's state takes
// to come: a lesson with hundreds of widgets on a busy machine takes more than a minute.
function withinAnswerTime(promise, kernel) {
  let timer;
  const start = performance.now();
  const late = new Promise((resolve, reject) => {
    const check = () => {
      const quiet = performance.now() - Math.max(start, kernel.heardAt || 0);
      if (quiet >= ANSWER_MS) reject(Object.assign(new Error('no answer'), { noAnswer: true }));
      else timer = setTimeout(check, ANSWER_MS - quiet + 1);
    };
    timer = setTimeout(check, ANSWER_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

function retriedRecently() {
  try {
    const at = Number(sessionStorage.getItem(RETRY_KEY) || 0);
    return Date.now() - at < 10 * 60 * 1000;
  } catch (error) {
    return true;  // no storage: never reload on our own, so this cannot loop
  }
}

function markRetry(on) {
  try {
    if (on) sessionStorage.setItem(RETRY_KEY, String(Date.now())); else sessionStorage.removeItem(RETRY_KEY);
  } catch (error) { /* no storage */ }
}

function widgetViews() {
  return Array.from(document.querySelectorAll(`script[type="${WIDGET_VIEW_MIME}"]`),
    (script) => ({ script, modelId: JSON.parse(script.textContent).model_id }));
}

function widgetSnapshot() {
  const element = document.getElementById('sloth-widget-state');
  return element ? JSON.parse(element.textContent) : null;
}

async function renderViews(manager, views) {
  await Promise.all(views.map(async ({ script, modelId }) => {
    const host = script.parentElement;
    script.remove();
    if (!manager.has_model(modelId)) return;  // the widget was closed before the page connected
    const model = await manager.get_model(modelId);
    const view = await manager.create_view(model);
    Widget.attach(view.luminoWidget, host);
  }));
}

// The page's address parameters, for the widgets that ask for them: a root widget whose model has
// a `_page_params` attribute (the play boards: `?seed=123` deals a chosen seed, a teacher's
// explicit choice). Voila would give the address to a preheated kernel only by making it wait
// for the request, which would lose the board that is already there; so the page sends it, once
// the kernel's states are in. Nothing is sent for an address without parameters.
// The query's parameters come flat; those after '#' come apart, as a dict under the key '#' (a
// shared table's page: `?table=ID#seat=TOKEN` sends {table: ID, '#': {seat: TOKEN}}). A browser
// never sends the part after '#' to the server, so a seat's token reaches only its own kernel; the
// table page reads tokens from '#' alone, and refuses one found in the query.
function pageParams() {
  const params = Object.fromEntries(new URLSearchParams(location.search));
  const fromHash = Object.fromEntries(new URLSearchParams(location.hash.replace(/^#/, '')));
  if (Object.keys(fromHash).length > 0) params['#'] = fromHash;
  return params;
}

async function sendPageParams(manager, views) {
  const params = pageParams();
  if (Object.keys(params).length === 0) return 0;
  let sent = 0;
  for (const { modelId } of views) {
    if (!manager.has_model(modelId)) continue;
    const model = await manager.get_model(modelId);
    if (model.get('_page_params') === undefined) continue;
    model.set('_page_params', params);
    model.save_changes();
    sent += 1;
  }
  return sent;
}

// The address the page was opened from (origin and Voila's base URL), for the root widgets whose
// model has a `_page_origin` attribute (the gallery's new-table form: its links point at this server).
async function sendPageOrigin(manager, views) {
  const base = (pageConfig().baseUrl || '/').replace(/\/+$/, '');
  for (const { modelId } of views) {
    if (!manager.has_model(modelId)) continue;
    const model = await manager.get_model(modelId);
    if (model.get('_page_origin') === undefined) continue;
    model.set('_page_origin', location.origin + base);
    model.save_changes();
  }
}

// The browser tab's title, for the root widgets whose model has a `_page_title` attribute (a
// shared table's page: the game, then "· Player 2 (you)"), set whenever it changes.
async function followPageTitle(manager, views) {
  for (const { modelId } of views) {
    if (!manager.has_model(modelId)) continue;
    const model = await manager.get_model(modelId);
    if (model.get('_page_title') === undefined) continue;
    const show = () => { const title = model.get('_page_title'); if (title) document.title = title; };
    model.on('change:_page_title', show);
    show();
  }
}

// A beat, every second while the page is open, for the root widgets whose model has a `_page_beat`
// attribute (a shared table's page: its seat counts as seated only while its page beats, since
// a closed tab's kernel lingers and Voila's close beacon is unreliable).
const BEAT_MS = 1000;

async function startPageBeat(manager, views, kernel) {
  const models = [];
  for (const { modelId } of views) {
    if (!manager.has_model(modelId)) continue;
    const model = await manager.get_model(modelId);
    if (model.get('_page_beat') !== undefined) models.push(model);
  }
  if (models.length === 0) return 0;
  let beat = 0;
  const timer = setInterval(() => {
    if (kernel.closed) { clearInterval(timer); return; }
    beat += 1;
    for (const model of models) {
      model.set('_page_beat', beat);
      model.save_changes();
    }
  }, BEAT_MS);
  return models.length;
}

// Marks for the browser benchmark (tests/e2e/bench.py reads them with performance.getEntriesByName).
const mark = (name) => performance.mark(`sloth:${name}`);

async function start() {
  mark('script');
  const page = window.slothPage || { fallBack: () => false };  // the template's fallback (index.html.j2)
  page.started = true;
  const stuck = document.querySelector('.sk-page-stuck');  // the template's "waited too long", if the page came after all
  if (stuck) stuck.remove();
  installAccess();  // arrows move focus within a hand of cards; sliders' handles get names
  const config = pageConfig();
  if (!config.kernelId) return;  // a page without a kernel (an error page)
  try {
    const kernel = new KernelConnection(config);
    kernel.onDisconnect = () => showBanner(
      'This game lost its connection to the server (its kernel stopped or the server went away). '
      + 'Reload the page to start a new game.');
    kernel.onKernelLost = () => showBanner(
      'This game\'s kernel stopped and restarted, so the game is gone. Reload the page to start a new game.');
    const early = window.slothEarlyKernel;
    window.slothEarlyKernel = null;
    const adopted = kernel.adopt(early);
    const connected = (adopted || kernel.connect()).then(() => mark('connected'));
    const manager = new WidgetManager(kernel, adopted ? early.controlCommId : null);
    const modules = Object.fromEntries(Object.entries(MODULES).map(([name, module]) => [name, module.version]));
    window.slothVoila = { manager, inlineSanitize, modules };  // for the browser tests
    const views = widgetViews();
    const snapshot = widgetSnapshot();
    let fromSnapshot = false;
    if (snapshot) {
      try {
        await manager.loadFromSnapshot(snapshot, views.map((v) => v.modelId));
        fromSnapshot = true;
      } catch (error) {
        console.warn('widget snapshot not used:', error);
      }
    }
    const answered = withinAnswerTime(connected.then(() => {
      kernel.flushEarly();
      return manager.loadFromKernel();  // the kernel's word wins where the snapshot differs
    }), kernel);
    answered.catch(() => {});  // awaited below; this only keeps an early failure from counting as unhandled
    if (fromSnapshot) {
      mark('models');
      await renderViews(manager, views);
      mark('rendered');
      page.up = true;
      document.body.classList.remove('sk-page-connecting');
      await answered;
      mark('reconciled');
    } else {
      await answered;
      mark('models');
      await renderViews(manager, views);
      mark('rendered');
      page.up = true;
    }
    markRetry(false);
    if (await sendPageParams(manager, views)) mark('params');
    await startPageBeat(manager, views, kernel);
    await followPageTitle(manager, views);
    await sendPageOrigin(manager, views);
  } catch (error) {
    if (error && error.noAnswer) {
      // A kernel that does not answer (stopped, stuck, or lost): never leave the visitor waiting.
      console.warn(`the game server did not answer within ${Math.round(ANSWER_MS / 1000)} s`);
      if (!retriedRecently()) {
        markRetry(true);
        showBanner('The game server did not answer, so this page is starting over with a fresh game…', false);
        location.reload();
        return;
      }
      showBanner(`The game server did not answer within ${Math.round(ANSWER_MS / 1000)} seconds `
        + '(its kernel may have stopped, or the server is very busy). Reload the page to try again.');
      return;
    }
    console.error(error);
    if (page.fallBack(`the front end failed: ${error.message || error}`)) return;  // reloading
    showBanner(`The game could not start: ${error.message || error}. Reload the page to try again.`);
  } finally {
    document.body.classList.remove('sk-page-connecting');
  }
}

start();
