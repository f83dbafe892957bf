/**
 * Every `patched()` id, in one place. Each marks a change that arrived while runs were paused: a run that passed
 * the point before the change replays the old branch, new runs take the new one. See README, "Changing workflow
 * code while runs are paused", for when a patch may be retired.
 */
export const PATCHES = {
  /** Tools write the text approvers read (`describe: true`). */
  toolDescriptions: 'tool-written-approval-descriptions',
  /** Decision rules v2: an edit into a gated call needs its approvers; four eyes needs the approver named. */
  decisionChecksV2: 'decision-checks-v2',
  /** Quick tools run as local activities. */
  localTools: 'local-tool-activities',
  /** Pending approvals are kept in the memo, for lists across runs. */
  pendingInMemo: 'pending-approvals-in-memo',
  /** A sub-agent reports every decision it received to its parent, taken or refused. */
  reportEveryAnswer: 'sub-agents-report-every-answer',
  /** Notifications in flight get a few seconds before the run closes. */
  flushNotifications: 'flush-notifications-before-close',
  /**
   * Calls get our own ids (`call-1`, `call-2`, …) instead of the model's, which may repeat or be odd; a sub-agent's
   * calls appear in its parent under `<parent call id>/<id>`; and decisions follow rules v3: an edit into another
   * tool is judged by that tool's policy.
   */
  ownCallIds: 'own-call-ids',
  /**
   * Continue-as-new lets watchers' waiting stream polls go (they retry on the next run) instead of waiting for
   * every handler to finish, which a watcher's poll never does while the run waits: a watched run would otherwise
   * never continue as new. Marked when the run starts.
   */
  streamHandOff: 'stream-hand-off',
  /**
   * Who decides: reviewers before humans, quorum, escalation tiers, consent that expires, prechecks. Calls are
   * announced under decision rules v4 (quorum). Each new command (a reviewer's or precheck's activity, an
   * escalation timer) also needs the policy or tool that asks for it, which runs recorded before this change never
   * had. (A run's own policy is limited by data instead: see src/workflows/run-policy.ts.)
   */
  whoDecides: 'who-decides',
} as const;
