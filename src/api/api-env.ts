/**
 * The API's types, apart from the app that wires the routes: routes import these, never the app, so the app can
 * import the routes without a cycle.
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { PayloadCodec } from '@temporalio/common';
import type { AgentRegistry } from '../agents/registry.js';
import type { HitlClient } from '../client/hitl-client.js';
import type { DecisionSigner } from '../signing/sign-decision.js';
import type { ApiMetrics } from './api-metrics.js';
import type { ApiTokens, Identity } from './api-tokens.js';

export interface ApiOptions {
  hitl: HitlClient;
  tokens: ApiTokens;
  /** Runs started over HTTP forbid their requester to approve or edit their own gated calls. */
  fourEyes: boolean;
  bodyLimitBytes: number;
  /** Requests per minute per approver (and per address for callers without a valid token). @default 300 */
  rateLimitPerMinute?: number;
  temporalUiUrl: string;
  namespace: string;
  /** Serves /codec/encode and /codec/decode for the Temporal UI when payloads are encrypted. */
  codec?: PayloadCodec;
  /** Local development only: /codec without a token. */
  codecAllowAnonymous?: boolean;
  /** Signs every decision in the caller's name, for runs that verify signed decisions. */
  signer?: DecisionSigner;
  /**
   * The agents the workers serve (in code and in HITL_AGENTS_FILE): `GET /api/agents` lists them, and starting a run
   * of any other is refused with 400. Unchecked, and listed empty, when absent.
   */
  agents?: AgentRegistry;
  /** Serves `/metrics` and counts requests for it; no `/metrics` when absent. */
  metrics?: ApiMetrics;
  /** One line per request; never given headers or bodies. @default console.log */
  log?: (line: string) => void;
}

/** The API's log line writer: `options.log`, or the console. */
export function apiLog(options: Pick<ApiOptions, 'log'>): (line: string) => void {
  return options.log ?? ((line: string) => console.log(line));
}

export interface ApiEnv {
  Variables: { identity: Identity };
}

export type ApiApp = OpenAPIHono<ApiEnv>;
