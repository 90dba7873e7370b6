// The console's HTTP API (src/pokerroom/server/console/). The session cookie is the room's.

import { call } from "../api.js";

export { ApiError, call } from "../api.js";

const enc = encodeURIComponent;
const C = "/api/console";

export const api = {
  login: (name, password) => call("POST", "/api/login", { name, password }),
  account: () => call("GET", "/api/account"),
  dashboard: () => call("GET", `${C}/dashboard`),
  players: (q) => call("GET", `${C}/players?q=${enc(q)}`),
  player: (id) => call("GET", `${C}/players/${enc(id)}`),
  playerLedger: (id, currency) => call("GET", `${C}/players/${enc(id)}/ledger?currency=${enc(currency)}`),
  playerHands: (id) => call("GET", `${C}/players/${enc(id)}/hands`),
  lock: (id, reason) => call("POST", `${C}/players/${enc(id)}/lock`, { reason }),
  unlock: (id) => call("POST", `${C}/players/${enc(id)}/unlock`),
  resetPassword: (id) => call("POST", `${C}/players/${enc(id)}/reset-password`),
  setRole: (id, role) => call("POST", `${C}/players/${enc(id)}/role`, { role }),
  adjust: (id, body) => call("POST", `${C}/players/${enc(id)}/adjust`, body),
  games: () => call("GET", `${C}/tables`),
  openGame: (kind, fields) => call("POST", `${C}/tables`, { kind, fields }),
  watch: (id) => call("GET", `${C}/tables/${enc(id)}`),
  gameAction: (id, what, body) => call("POST", `${C}/tables/${enc(id)}/${what}`, body),
  tournaments: () => call("GET", `${C}/tournaments`),
  tournament: (id) => call("GET", `${C}/tournaments/${enc(id)}`),
  schedule: (fields) => call("POST", `${C}/tournaments`, fields),
  editTournament: (id, fields) => call("PUT", `${C}/tournaments/${enc(id)}`, fields),
  cancelTournament: (id) => call("POST", `${C}/tournaments/${enc(id)}/cancel`),
  resumeTournament: (id) => call("POST", `${C}/tournaments/${enc(id)}/resume`),
  addRecurring: (fields) => call("POST", `${C}/tournaments/recurring`, fields),
  editRecurring: (id, fields) => call("PUT", `${C}/tournaments/recurring/${enc(id)}`, fields),
  removeRecurring: (id) => call("DELETE", `${C}/tournaments/recurring/${enc(id)}`),
  setTournamentDeals: (id, allowed) => call("POST", `${C}/tournaments/${enc(id)}/deals`, { allowed }),
  promotions: () => call("GET", `${C}/promotions`),
  setPromotions: (fields) => call("PUT", `${C}/promotions`, { fields }),
  report: (name, days) => call("GET", `${C}/reports/${name}?days=${days}`),
  audit: (params) => call("GET", `${C}/audit?${new URLSearchParams(params)}`),
  shared: () => call("GET", `${C}/integrity/shared`),
  logins: (id) => call("GET", `${C}/integrity/players/${enc(id)}/logins`),
  chatLog: (params) => call("GET", `${C}/integrity/chat?${new URLSearchParams(params)}`),
  chatWords: () => call("GET", `${C}/integrity/chat/words`),
  setChatWords: (words) => call("PUT", `${C}/integrity/chat/words`, { words }),
  roomMutes: () => call("GET", `${C}/integrity/mutes`),
  muteForAll: (body) => call("POST", `${C}/integrity/mutes`, body),
  liftMute: (id) => call("POST", `${C}/integrity/mutes/${enc(id)}/lift`),
  playerReports: () => call("GET", `${C}/integrity/reports`),
  closeReport: (id) => call("POST", `${C}/integrity/reports/${enc(id)}/close`),
  notes: (id) => call("GET", `${C}/integrity/players/${enc(id)}/notes`),
  addNote: (id, text) => call("POST", `${C}/integrity/players/${enc(id)}/notes`, { text }),
  findings: (days) => call("GET", `${C}/integrity/report?days=${enc(days)}`),
  findingsRun: (id) => call("GET", `${C}/integrity/report/${enc(id)}`),
  auditHand: (id) => call("GET", `${C}/integrity/hands/${enc(id)}/replay`),
};
