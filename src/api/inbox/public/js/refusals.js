/** What a refused request means, in the words a reviewer would use; the server's own message is kept as detail. */

const BY_CODE = {
  already_decided: 'Someone already decided this call, so your decision was not applied.',
  already_approved: 'You have already approved this call; it waits for other approvers.',
  not_ready: 'What this call depends on is still being looked up. Look at it again and decide in a moment.',
  run_closed: 'This run has already ended; there is nothing left to decide.',
  run_stuck: 'This run is stuck, so your decision was not recorded. What to do is shown below.',
  busy: 'The run was busy for a moment and did not take your decision. Decide again.',
  args_hash_mismatch: 'The arguments changed since you loaded them. Look at the new arguments and decide again.',
  tool_mismatch: 'This call is not the one you loaded. Look at it again and decide again.',
  approver_not_allowed: 'You are not an approver for this tool.',
  approver_required: 'You are not an approver for this tool.',
  four_eyes: 'You requested this run or proposed this call, so someone else has to decide it (the four-eyes rule).',
  invalid_edit_args: 'The server refused the edited arguments: they do not fit the tool.',
  invalid_request: 'The server refused the request as invalid.',
  approval_not_found: 'This approval is gone: it was decided or it timed out.',
  run_not_found: 'This run no longer exists.',
  unauthorized: 'Your token was not accepted. Sign in again.',
  body_too_large: 'That is too much text to send.',
  network: 'The approval API could not be reached. Check your connection and try again.',
  temporal_unavailable: 'Temporal cannot be reached right now. Try again in a moment.',
};

const BY_STATUS = {
  400: 'The server refused the request as invalid.',
  401: 'Your token was not accepted. Sign in again.',
  403: 'You may not decide this call.',
  404: 'This approval is gone: it was decided or it timed out.',
  409: 'This call changed while you were looking at it, so your decision was not applied.',
  413: 'That is too much text to send.',
};

/** @param {{status: number, code: string, message: string}} error @returns {{headline: string, detail?: string}} */
export function describeRefusal(error) {
  const headline = BY_CODE[error.code] ?? BY_STATUS[error.status] ?? 'Something went wrong; your decision was not recorded. Try again.';
  return { headline, ...(error.message && error.message !== headline && { detail: error.message }) };
}
