/** Public client API. */
export { HitlClient, type DecisionOptions, type WatchOptions } from './hitl-client.js';
export { sharedHitlClient, closeSharedHitlClient } from './connection.js';
export { encodeApprovalId, decodeApprovalId, type ApprovalRef } from './approval-id.js';
export { DecisionRefusedError, RunNotFoundError, ApprovalNotFoundError } from '../errors.js';
