// The HTTP API (src/pokerroom/server/http.py). The session cookie is set by login/register.

export class ApiError extends Error {
  constructor(status, code, message, details) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details || {};
  }
}

// One request; a refusal becomes an ApiError with the server's code (the console's api.js uses it too).
export async function call(method, path, body) {
  const opts = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    const detail = (data && (data.detail || data)) || {};
    let message = detail.message || res.statusText;
    if (Array.isArray(detail)) message = detail.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    throw new ApiError(res.status, detail.code || "http_" + res.status, message, detail.details);
  }
  return data;
}

export const api = {
  register: (name, password) => call("POST", "/api/register", { name, password }),
  login: (name, password) => call("POST", "/api/login", { name, password }),
  logout: () => call("POST", "/api/logout"),
  muteChat: (name) => call("POST", "/api/chat/mutes", { name }),
  reportLine: (line, reason) => call("POST", "/api/reports", { kind: "chat", line, reason }),
  reportHand: (hand, reason) => call("POST", "/api/reports", { kind: "hand", hand, reason }),
  account: () => call("GET", "/api/account"),
  refill: () => call("POST", "/api/account/play-money"),
  ledger: (currency = "PLAY", limit = 50) => call("GET", `/api/account/ledger?currency=${currency}&limit=${limit}`),
  lobby: () => call("GET", "/api/lobby"),
  room: () => call("GET", "/api/room"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  tournaments: () => call("GET", "/api/tournaments"),
  tournament: (id) => call("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  rebuy: (id, addOn = false) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/rebuy`, { add_on: addOn }),
  proposeDeal: (id, method) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/deal`, { method }),
  answerDeal: (id, accept) => call("POST", `/api/tournaments/${encodeURIComponent(id)}/deal/answer`, { accept }),
  hands: (limit = 50) => call("GET", `/api/hands?limit=${limit}`),
  handReplay: (id) => call("GET", `/api/hands/${encodeURIComponent(id)}/replay`),
  handValue: (game, cards, board) => call("GET", `/api/hand-value?${new URLSearchParams({ game, cards, board })}`),
  equity: (game, hands, board) => {
    const q = new URLSearchParams({ game, board });
    for (const cards of hands) q.append("hands", cards);
    return call("GET", `/api/equity?${q}`);
  },
};
