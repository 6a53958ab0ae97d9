// The page's first script, run as soon as every cell has run (see the sloth template): start
// the front end (main.js, preloaded since the head), and meanwhile open the kernel's WebSocket
// and ask for every widget's state, queueing what arrives. main.js adopts the socket and the
// queue (KernelConnection.adopt), so the kernel prepares its answer while the page starts.

import { CONTROL_TARGET, encode, makeMessage, openSocket, uuid } from './protocol.js';

(() => {
  const mainScript = document.createElement('script');  // inserted, so no stylesheet holds it back
  mainScript.src = document.currentScript.dataset.main;
  document.body.appendChild(mainScript);

  const early = { queue: [], failed: false, session: uuid(), controlCommId: uuid(), socket: null };
  window.slothEarlyKernel = early;
  try {
    const config = JSON.parse(document.getElementById('jupyter-config-data').textContent);
    const socket = openSocket(config, early.session);
    early.socket = socket;
    socket.addEventListener('open', () => {
      const send = (type, content, metadata) =>
        socket.send(encode(socket, makeMessage(early.session, 'shell', type, content, metadata)));
      send('comm_open', { comm_id: early.controlCommId, target_name: CONTROL_TARGET, data: {} }, { version: '1.0.0' });
      send('comm_msg', { comm_id: early.controlCommId, data: { method: 'request_states' } });
    });
    socket.onmessage = (event) => early.queue.push(event.data);
    socket.addEventListener('error', () => { early.failed = true; });
  } catch (error) {
    early.failed = true;
  }
})();
