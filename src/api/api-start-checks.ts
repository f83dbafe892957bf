/**
 * What the API checks of its tokens and its address before it serves: tokens no client could send are refused, an
 * API no one can call is refused, and an address other machines reach is said, loudly when it serves /codec to
 * anyone (README, "Production").
 */
import type { EnvConfig } from '../config.js';
import type { ApiTokens } from './api-tokens.js';

/**
 * A bearer token as an Authorization header carries it: visible ASCII, no spaces (RFC 7235's token68 is narrower
 * still). A line break cannot be sent at all, and the API trims what it is sent, so such a token would match nothing.
 */
const SENDABLE_TOKEN = /^[\x21-\x7e]+$/;

type TokenSettings = Pick<EnvConfig, 'HITL_API_TOKENS_FILE'>;
type HostSettings = Pick<EnvConfig, 'HITL_API_HOST' | 'HITL_CODEC_ALLOW_ANONYMOUS'>;

/** Throws, naming each entry by its place and approver (never by the token), when a token cannot be sent. */
export function checkTokensSendable(tokens: ApiTokens, config: TokenSettings): void {
  const unsendable = Object.entries(tokens).flatMap(([token, identity], index) =>
    SENDABLE_TOKEN.test(token) ? [] : [`entry ${index + 1} (approver "${identity.approver}")`],
  );
  if (!unsendable.length) return;
  const setting = config.HITL_API_TOKENS_FILE ? `HITL_API_TOKENS_FILE (${config.HITL_API_TOKENS_FILE})` : 'HITL_API_TOKENS';
  throw new Error(
    `Invalid ${setting}: the token of ${unsendable.join(', ')} holds a space, a line break or a character outside ` +
      'visible ASCII, which no Authorization header can carry. Use letters, digits and punctuation only.',
  );
}

/**
 * Without tokens every /api call is answered 401: no other credential opens the API (OIDC tokens sign decisions,
 * they do not authenticate requests). Refused, unless the API serves /codec without a token, which is of use alone.
 */
export function checkSomeoneCanCall(tokens: ApiTokens, config: TokenSettings & HostSettings): string[] {
  if (Object.keys(tokens).length > 0) return [];
  const where = config.HITL_API_TOKENS_FILE ? `HITL_API_TOKENS_FILE (${config.HITL_API_TOKENS_FILE}) holds` : 'HITL_API_TOKENS holds';
  const none = `${where} no tokens, so every /api call (the inbox's among them) would be answered 401`;
  if (!config.HITL_CODEC_ALLOW_ANONYMOUS) {
    throw new Error(`${none}. Set HITL_API_TOKENS (or HITL_API_TOKENS_FILE) to {"<token>": {"approver": "<name>"}}.`);
  }
  return [`Warning: ${none}; only /codec (HITL_CODEC_ALLOW_ANONYMOUS), /healthz, /readyz and /metrics answer.`];
}

/** Lines for the log about the address the API listens on: all interfaces, and /codec open to other machines. */
export function hostNotes(config: HostSettings, url: string): string[] {
  const host = config.HITL_API_HOST;
  const notes: string[] = [];
  if (ALL_INTERFACES.has(host)) {
    notes.push(
      `The API listens on all interfaces (HITL_API_HOST=${host}): other machines reach it at this machine's addresses, not only at ${url}.`,
    );
  }
  if (config.HITL_CODEC_ALLOW_ANONYMOUS && !isLoopback(host)) {
    notes.push(
      `Warning: HITL_CODEC_ALLOW_ANONYMOUS=true with HITL_API_HOST=${host}: /codec answers without a token, so with ` +
        'encryption keys it decrypts payloads for anyone who can reach the API. Set HITL_API_HOST=127.0.0.1, or put ' +
        'the API behind a proxy that signs users in.',
    );
  }
  return notes;
}

const ALL_INTERFACES = new Set(['0.0.0.0', '::', '[::]']);

/** A host only this machine reaches: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::1' || host === '[::1]';
}
