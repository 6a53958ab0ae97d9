// The Jupyter messaging protocol over jupyter_server's kernel WebSocket, shared by the page's
// early script (early.js) and the front end (main.js).
//
// The socket asks for the `v1.kernel.websocket.jupyter.org` subprotocol: binary frames that
// the server passes to and from the kernel without parsing their content. A server that does
// not offer it gets the older format: JSON text frames (binary only when buffers ride along).

export const V1 = 'v1.kernel.websocket.jupyter.org';
export const PROTOCOL_VERSION = '5.3';
export const CONTROL_TARGET = 'jupyter.widget.control';  // ipywidgets' comm for all widget states

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

export function uuid() {
  return crypto.randomUUID ? crypto.randomUUID().replace(/-/g, '')
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function channelsUrl(config, session) {
  const baseUrl = config.baseUrl || '/';
  const wsBase = config.wsUrl || `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${baseUrl}`;
  const token = config.token ? `&token=${encodeURIComponent(config.token)}` : '';
  return `${wsBase.replace(/\/?$/, '/')}api/kernels/${config.kernelId}/channels?session_id=${session}${token}`;
}

export function openSocket(config, session) {
  const socket = new WebSocket(channelsUrl(config, session), [V1]);
  socket.binaryType = 'arraybuffer';
  return socket;
}

export function makeMessage(session, channel, msgType, content, metadata = {}) {
  const header = { msg_id: uuid(), msg_type: msgType, session, username: '',
    date: new Date().toISOString(), version: PROTOCOL_VERSION };
  return { header, parent_header: {}, metadata, content, channel };
}

function bytesOf(buffer) {
  return buffer instanceof ArrayBuffer ? new Uint8Array(buffer)
    : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

// Frames with offsets first: [count][offset 0..count-1] then channel, header, parent header,
// metadata, content and buffers; every number a little-endian uint64.
function encodeV1(msg, buffers) {
  const parts = [utf8.encode(msg.channel),
    ...[msg.header, msg.parent_header, msg.metadata, msg.content].map((part) => utf8.encode(JSON.stringify(part))),
    ...buffers.map(bytesOf)];
  const count = parts.length + 1;
  const offsets = [8 * (1 + count)];
  for (const part of parts) offsets.push(offsets[offsets.length - 1] + part.byteLength);
  const out = new Uint8Array(offsets[offsets.length - 1]);
  const view = new DataView(out.buffer);
  view.setBigUint64(0, BigInt(count), true);
  offsets.forEach((offset, i) => view.setBigUint64(8 * (i + 1), BigInt(offset), true));
  parts.forEach((part, i) => out.set(part, offsets[i]));
  return out.buffer;
}

function decodeV1(data) {
  const view = new DataView(data);
  const count = Number(view.getBigUint64(0, true));
  const offsets = [];
  for (let i = 0; i < count; i++) offsets.push(Number(view.getBigUint64(8 * (i + 1), true)));
  const text = (i) => fromUtf8.decode(new Uint8Array(data, offsets[i], offsets[i + 1] - offsets[i]));
  const json = (i) => { const t = text(i); return t ? JSON.parse(t) : {}; };
  const buffers = [];
  for (let i = 5; i < count - 1; i++) buffers.push(new DataView(data.slice(offsets[i], offsets[i + 1])));
  return { channel: text(0), header: json(1), parent_header: json(2), metadata: json(3), content: json(4), buffers };
}

// The older format: [count][offsets] as big-endian uint32, then the JSON message and buffers.
function encodeLegacy(msg, buffers) {
  if (buffers.length === 0) return JSON.stringify(msg);
  const parts = [utf8.encode(JSON.stringify(msg)), ...buffers.map(bytesOf)];
  const offsets = [];
  let at = 4 * (parts.length + 1);
  for (const part of parts) { offsets.push(at); at += part.byteLength; }
  const out = new Uint8Array(at);
  const view = new DataView(out.buffer);
  view.setUint32(0, parts.length);
  offsets.forEach((offset, i) => view.setUint32(4 * (i + 1), offset));
  parts.forEach((part, i) => out.set(part, offsets[i]));
  return out.buffer;
}

function decodeLegacy(data) {
  if (typeof data === 'string') return JSON.parse(data);
  const view = new DataView(data);
  const count = view.getUint32(0);
  const offsets = [];
  for (let i = 0; i < count; i++) offsets.push(view.getUint32(4 * (i + 1)));
  offsets.push(data.byteLength);
  const msg = JSON.parse(fromUtf8.decode(new Uint8Array(data, offsets[0], offsets[1] - offsets[0])));
  msg.buffers = [];
  for (let i = 1; i < count; i++) msg.buffers.push(new DataView(data.slice(offsets[i], offsets[i + 1])));
  return msg;
}

// The codec the open socket agreed on.
export function encode(socket, msg, buffers = []) {
  return socket.protocol === V1 ? encodeV1(msg, buffers || []) : encodeLegacy(msg, buffers || []);
}

export function decode(socket, data) {
  return socket.protocol === V1 ? decodeV1(data) : decodeLegacy(data);
}
