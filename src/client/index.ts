/** Public client API. */
export { HitlClient, type DecisionOptions, type WatchOptions } from './hitl-client.js';
export { sharedHitlClient, closeSharedHitlClient } from './connection.js';
export { encodeApprovalId, decodeApprovalId, type ApprovalRef } from './approval-id.js';
export { DecisionRefusedError } from '../errors/decision-refused-error.js';
export { RunNotFoundError } from '../errors/run-not-found-error.js';
export { ApprovalNotFoundError } from '../errors/approval-not-found-error.js';
