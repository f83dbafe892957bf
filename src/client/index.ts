/** Public client API. */
export { HitlClient, type DecisionOptions } from './hitl-client.js';
export type { KnownAgents, StartInput } from './start-input.js';
export { type SubscribeOptions } from './run-subscription.js';
export type { RunEvent, RunStreamItem } from '../schemas/run-event.js';
export type { TokenEvent } from '../schemas/token-event.js';
export { sharedHitlClient, closeSharedHitlClient } from './connection.js';
export { encodeApprovalId, decodeApprovalId, type ApprovalRef } from '../contract/approval-id.js';
export { DecisionRefusedError, RunNotFoundError, ApprovalNotFoundError } from '../errors.js';
export { StreamOffsetError, NotAnAgentRunError, RunStuckError } from './run-errors.js';
