// Deck proofs in the browser (docs/fairness.md): the roots this page saw when hands started, the
// player's proofs revealed when they ended, and the "Verify" of the last-hand window.
//
// A proof (canonical JSON) holds the root, every deck position's leaf, and the openings [position, card,
// salt] of the cards this player may see. The page checks, itself: the text is canonical; each opening
// hashes to its leaf, SHA-256("pokerroom/deck-leaf/v2:" label ":" position ":" card ":" salt); the
// leaves and seeds hash to the root; the root is the one it received when the hand started. The hashes
// are computed here (SHA-256 of FIPS 180-4, written out below, so that it works on a page served over
// plain HTTP too, where crypto.subtle is missing). The check that the cards were dealt from their
// positions in the dealing order needs the rules engine: the room runs the same check as `pokerroom
// verify` on the player's own history ("verify_hand"), and its answer is shown beside ours.

import { t } from "./i18n.js";

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const rotr = (x, n) => (x >>> n) | (x << (32 - n));

/** SHA-256 of a string (UTF-8), as 64 lowercase hex digits. */
export function sha256hex(text) {
  const data = new TextEncoder().encode(text);
  const bitLength = data.length * 8;
  const padded = new Uint8Array(((data.length + 9 + 63) >> 6) << 6);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 0x100000000));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const hash = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + 4 * t);
    for (let t = 16; t < 64; t++) {
      const s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >>> 3);
      const s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >>> 10);
      w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = hash;
    for (let t = 0; t < 64; t++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0;
      d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    const add = [a, b, c, d, e, f, g, hh];
    for (let i = 0; i < 8; i++) hash[i] = (hash[i] + add[i]) >>> 0;
  }
  return [...hash].map((x) => x.toString(16).padStart(8, "0")).join("");
}

/** JSON with sorted keys and no spaces: the canonical text of a proof (as the room writes it). */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const HEX64 = /^[0-9a-f]{64}$/;
const SALT = /^[0-9a-f]{32}$/;

/** The root of a proof's leaves and seeds (docs/fairness.md). */
export function proofRoot(p) {
  const seed = p.seed
    ? `${p.seed.commitment}/${p.seed.contributions.map(([s, v, o]) => `${s}.${v}.${o}`).join(",")}`
    : "";
  const again = p.reshuffle ? p.reshuffle.leaves.join(",") : "";
  return sha256hex(`pokerroom/deck-root/v2:${p.spec}:${seed}:${p.deck.leaves.join(",")}:${again}`);
}

/** Check one proof text: problems (empty when it holds) and the cards it opens, by position. */
export function checkProof(text) {
  let p;
  try {
    p = JSON.parse(text);
  } catch {
    return { problems: [t("fair.unreadable")], opened: [] };
  }
  if (!p || p.v !== 2 || !p.deck || canonical(p) !== text) return { problems: [t("fair.unreadable")], opened: [] };
  const problems = [];
  const opened = [];
  for (const label of ["deck", "reshuffle"]) {
    const part = p[label];
    if (!part) continue;
    for (const [i, card, salt] of part.open) {
      const leaf = part.leaves[i];
      if (!SALT.test(salt) || !HEX64.test(leaf || "") ||
          sha256hex(`pokerroom/deck-leaf/v2:${label}:${i}:${card}:${salt}`) !== leaf) {
        problems.push(t("fair.leaf_bad", { position: i, card }));
      }
      if (label === "deck") opened.push(`${i + 1}:${card}`);
    }
  }
  const root = proofRoot(p);
  if (root !== p.root) problems.push(t("fair.root_bad", { computed: root, commitment: p.root }));
  return { problems, opened, root: p.root, leaves: p.deck.leaves.length };
}

function seedOf(text) {
  try {
    return JSON.parse(text).seed || null;
  } catch {
    return null;
  }
}

/** What this page knows of hands' decks: the root seen at each start, the proofs revealed. */
export class Fairness {
  /** ``send(message)`` sends a client message (our seed contributions). */
  constructor(send = () => {}) {
    this.send = send;
    this.seen = new Map(); // hand id -> commitment (root) published at its start
    this.proofs = new Map(); // hand id -> {commitment, proof}, once the hand is over
    this.sent = new Map(); // seed commitment -> the contribution we sent for it (hex)
  }

  /** Note what a frame says about decks (hand_started events, snapshots, deck_revealed); answer a
   * published next seed at once with 32 random bytes of our own (the deal never waits for them). */
  observe(msg) {
    if (msg.type === "event" && msg.event && msg.event.type === "hand_started" && msg.event.commitment) {
      this.seen.set(msg.hand_id, msg.event.commitment);
      this.contribute(msg.event.next_seed, msg.event.seed_at);
    } else if (msg.type === "snapshot" && msg.state && msg.state.hand && msg.state.hand.commitment) {
      if (!this.seen.has(msg.state.hand.hand_id)) this.seen.set(msg.state.hand.hand_id, msg.state.hand.commitment);
      this.contribute(msg.state.hand.next_seed, msg.state.hand.seed_at);
    } else if (msg.type === "deck_revealed") {
      this.proofs.set(msg.hand_id, { commitment: msg.commitment, proof: msg.proof });
    }
    for (const map of [this.seen, this.proofs, this.sent]) {
      while (map.size > 500) map.delete(map.keys().next().value);
    }
  }

  /** Our contribution to the seed ``seed`` of the place ``where`` (once per seed). */
  contribute(seed, where) {
    if (!seed || !where || this.sent.has(seed) || !globalThis.crypto || !crypto.getRandomValues) return;
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const value = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.sent.set(seed, value);
    this.send({ type: "contribute", table: where, seed, value });
  }

  /** The browser's own checks of a proof: lines of text and whether all held. */
  check(handId, proof) {
    const lines = [];
    if (!proof || typeof proof.proof !== "string") return { ok: false, lines: [t("fair.no_proof")] };
    const { problems, opened, root, leaves } = checkProof(proof.proof);
    let ok = problems.length === 0 && root === proof.commitment;
    if (ok) lines.push(t("fair.root_ok", { commitment: proof.commitment, n: opened.length, leaves }));
    lines.push(...problems);
    if (root !== undefined && root !== proof.commitment) {
      lines.push(t("fair.root_bad", { computed: root, commitment: proof.commitment }));
    }
    const seen = this.seen.get(handId);
    if (seen === undefined) lines.push(t("fair.not_seen"));
    else if (seen === proof.commitment) lines.push(t("fair.seen_same"));
    else {
      ok = false;
      lines.push(t("fair.seen_other", { seen }));
    }
    if (opened.length) lines.push(t("fair.opened", { cards: opened.join(" ") }));
    const mine = seedOf(proof.proof);
    const value = mine && this.sent.get(mine.commitment);
    if (value !== undefined) {
      if (mine.contributions.some(([, v, o]) => v === value && o === "player")) lines.push(t("fair.contribution_ok"));
      else {
        ok = false;
        lines.push(t("fair.contribution_bad", { value }));
      }
    }
    return { ok, lines };
  }
}
