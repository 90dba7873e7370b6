// One WebSocket for the whole page (docs/protocol.md): reconnects, re-subscribes, spots sequence gaps.

export class Socket {
  constructor() {
    this.ws = null;
    this.handlers = new Map(); // table id -> handler(msg)
    this.listeners = new Set(); // global listeners(msg)
    this.seq = new Map(); // table id -> last seq
    this.pending = new Map(); // table id -> timer waiting for its snapshot
    this.ref = 0;
    this.waiting = new Map(); // ref -> {resolve, reject} of a request() awaiting its ack or error
    this.queue = [];
    this.closedByUs = false;
    this.retry = 0;
    this.onstatus = () => {};
  }

  connect() {
    this.closedByUs = false;
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      // Frames the server has ready together come as one message, a JSON array (docs/protocol.md).
      ws.send(JSON.stringify({ type: "hello", version: 2, batch: true }));
      this.onstatus("online");
      for (const table of this.handlers.keys()) this.subscribe(table);
      const queued = this.queue.splice(0);
      for (const msg of queued) this.send(msg);
    };
    ws.onmessage = (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (Array.isArray(msg)) for (const one of msg) this.dispatch(one);
      else this.dispatch(msg);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.onstatus("offline");
      if (this.closedByUs) return;
      if (ev.code === 4401) return; // the login session ended (logout, expiry): no reconnect
      this.retry = Math.min(this.retry + 1, 6);
      setTimeout(() => this.connect(), 300 * this.retry);
    };
  }

  close() {
    this.closedByUs = true;
    if (this.ws) this.ws.close();
    this.ws = null;
  }

  dispatch(msg) {
    if ((msg.type === "ack" || msg.type === "error") && this.waiting.has(msg.ref)) {
      const { resolve, reject } = this.waiting.get(msg.ref);
      this.waiting.delete(msg.ref);
      if (msg.type === "ack") resolve(msg);
      else reject(Object.assign(new Error(msg.message), { code: msg.code, details: msg.details }));
      return;
    }
    const table = msg.table;
    // (a Rush entry's window is not subscribed: its frames carry the pool and are never checked for gaps)
    if (table && typeof msg.seq === "number" && msg.pool === undefined) {
      const last = this.seq.get(table);
      if (msg.type === "snapshot") {
        this.seq.set(table, msg.seq);
      } else if (last !== undefined) {
        if (msg.seq <= last) return; // already covered by a newer snapshot
        if (msg.seq !== last + 1) {
          this.seq.delete(table);
          this.subscribe(table); // a gap: a fresh snapshot follows
          return;
        }
        this.seq.set(table, msg.seq);
      } else if (this.handlers.has(table)) {
        return; // waiting for the snapshot
      }
    }
    for (const fn of this.listeners) fn(msg);
    if (table && this.handlers.has(table)) this.handlers.get(table)(msg);
  }

  send(msg) {
    if (!msg.ref) {
      this.ref += 1;
      msg.ref = `w${this.ref}`;
    }
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
    return msg.ref;
  }

  // Send a request and wait for its answer: resolves with the ack, rejects with the error (its message).
  request(msg) {
    return new Promise((resolve, reject) => {
      const ref = this.send(msg);
      this.waiting.set(ref, { resolve, reject });
    });
  }

  watch(table, handler) {
    this.handlers.set(table, handler);
    this.subscribe(table);
  }

  unwatch(table) {
    this.handlers.delete(table);
    this.seq.delete(table);
    this.send({ type: "unsubscribe", table });
  }

  subscribe(table) {
    this.seq.delete(table);
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.send({ type: "subscribe", table });
    // No snapshot after a while (a busy server, a lost frame): ask again.
    clearTimeout(this.pending.get(table));
    this.pending.set(table, setTimeout(() => {
      if (this.handlers.has(table) && !this.seq.has(table)) this.subscribe(table);
    }, 5000));
  }
}
